import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { MAX_IMAGE_BYTES } from "~/lib/images";
import { BODY_LIMITS, bodyTooLarge, jsonError } from "../platform/http.server";

const UPLOAD_FIELD = "image";

/**
 * Reads the one file of a multipart upload (field `image`) into memory, at
 * most MAX_IMAGE_BYTES. Throws a JSON Response for 400 (not multipart, no
 * file, malformed) and 413 (file too large, or a body past BODY_LIMITS.upload
 * whatever its parts, counted as it arrives; the connection is closed rather
 * than the rest of the body read).
 */
export async function readUploadedFile(request: Request, maxBytes = MAX_IMAGE_BYTES): Promise<Buffer> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body) {
    throw jsonError(400, `Send the image as multipart/form-data with one file field named "${UPLOAD_FIELD}"`);
  }
  const tooLarge = () => bodyTooLarge(maxBytes, `The image is too large: ${maxBytes / 1024 / 1024} MB at most`);
  if (Number(request.headers.get("Content-Length") ?? "0") > BODY_LIMITS.upload) throw tooLarge();

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // busboy signals "limit" on reaching fileSize, so one byte more marks a file over maxBytes.
      limits: { files: 1, fileSize: maxBytes + 1, fields: 20, fieldSize: 64 * 1024, parts: 40 },
    });
  } catch {
    throw jsonError(400, "The request is not a valid multipart/form-data upload");
  }

  const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);

  return new Promise<Buffer>((resolve, reject) => {
    let file: Buffer | undefined;
    let settled = false;
    const fail = (response: Response) => {
      if (settled) return;
      settled = true;
      // Stop parsing and leave the rest unread instead of destroying the
      // stream: that would close the socket before the answer goes out. The
      // server drops the rest once the answer is sent (dropUnreadBody).
      body.unpipe(parser);
      body.pause();
      reject(response);
    };

    parser.on("file", (name, stream) => {
      if (name !== UPLOAD_FIELD || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(tooLarge()));
      stream.on("end", () => {
        if (!settled) file = Buffer.concat(chunks);
      });
    });
    parser.on("error", () => fail(jsonError(400, "The request is not a valid multipart/form-data upload")));
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      if (!file) return reject(jsonError(400, `No file: send the image in a file field named "${UPLOAD_FIELD}"`));
      if (file.byteLength === 0) return reject(jsonError(400, "The file is empty"));
      resolve(file);
    });
    // Every byte counts, whichever part carries it: fields and other files too.
    let received = 0;
    body.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > BODY_LIMITS.upload) fail(tooLarge());
    });
    body.on("error", () => fail(jsonError(400, "The upload was interrupted")));
    body.pipe(parser);
  });
}
