import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { sql } from "kysely";
import { IMPORT_FILE_FIELD, IMPORT_SITE_URL_FIELD } from "~/lib/import";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { BODY_LIMITS, bodyTooLarge, jsonError } from "../platform/http.server";
import { IMPORT_LIMITS, type ReadFile, siteAddress, type SourceKind } from "./source.server";

/**
 * An import's file and report in the database (ADR 074). The upload is
 * written in pieces of 1 MiB as it arrives, never held whole, under a row
 * reserved first: one import at a time (a second is refused before any of
 * its file is read, whichever process gets it), and the pieces stay until
 * the work is done so that any process can take the work up again.
 */

const CHUNK_BYTES = 1024 * 1024;
/** The PostgreSQL advisory lock that makes "one import at a time" hold across processes. */
const IMPORT_LOCK = 580_074;
/** A file still arriving after this long without a piece is given up (its process died). */
export const STALE_RECEIVING_MS = 2 * 60_000;

const BUSY_MESSAGE = "An import is running: wait for it to finish, then import the next file";

/** The pieces of an import's file in order, one query each: memory holds one piece at a time. */
export function fileOf(db: Db, importId: string): ReadFile {
  return async function* () {
    for (let seq = 0; ; seq++) {
      const row = await db
        .selectFrom("import_chunks")
        .select("bytes")
        .where("import_id", "=", importId)
        .where("seq", "=", seq)
        .executeTakeFirst();
      if (!row) return;
      yield row.bytes;
    }
  };
}

/** The first character that is not white space (or a byte-order mark) says which export it is. */
function kindOf(start: Buffer): SourceKind | undefined {
  const text = start
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (text.startsWith("<")) return "wordpress";
  if (text.startsWith("{")) return "ghost";
  return undefined;
}

/** Reserves the one import that may run: a row `receiving`, or a 409 when another is under way. */
async function reserve(db: Db, fileName: string, by: string): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  const reserved = await db.transaction().execute(async (trx) => {
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${IMPORT_LOCK})`.execute(trx);
    const busy = await trx
      .selectFrom("imports")
      .select("id")
      .where((eb) =>
        eb.or([
          eb("status", "=", "running"),
          eb.and([
            eb("status", "=", "receiving"),
            eb("updated_at", ">", new Date(now.getTime() - STALE_RECEIVING_MS).toISOString()),
          ]),
        ]),
      )
      .executeTakeFirst();
    if (busy) return false;
    await trx
      .insertInto("imports")
      .values({
        id,
        status: "receiving",
        file_name: fileName.slice(0, 300) || "export",
        created_by: by.slice(0, 320),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
    return true;
  });
  if (!reserved) throw jsonError(409, BUSY_MESSAGE);
  return id;
}

/** Drops an import's file and, for an upload that never finished, its row. */
export async function forgetFile(db: Db, importId: string, { row = false } = {}): Promise<void> {
  await db.deleteFrom("import_chunks").where("import_id", "=", importId).execute();
  if (row) await db.deleteFrom("imports").where("id", "=", importId).execute();
}

export interface ReceivedFile {
  id: string;
  kind: SourceKind;
  siteUrl: string | null;
}

const tooLarge = () =>
  bodyTooLarge(
    IMPORT_LIMITS.fileBytes,
    `The file is too large: ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB at most. Export part of the old site at a time (WordPress: by category or dates)`,
  );

/** The old site's address as typed: an http(s) URL without its trailing slash, or null when left empty. */
function siteUrlOf(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  let url: URL;
  try {
    url = new URL(trimmed.length > 2048 ? "invalid" : trimmed);
  } catch {
    throw jsonError(400, "The old site's address must be a URL such as https://old.example.com");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw jsonError(400, "The old site's address must start with https:// or http://");
  return siteAddress(url);
}

/** Writes one file part in pieces under a reserved import; answers its id and its first bytes. */
async function storeFilePart(
  db: Db,
  stream: Readable & { truncated?: boolean },
  fileName: string,
  by: string,
): Promise<{ id: string; start: Buffer }> {
  let tooBig = false;
  stream.on("limit", () => (tooBig = true));
  const id = await reserve(db, fileName, by);
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let start: Buffer | undefined;
  let size = 0;
  const flush = async () => {
    const bytes = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    start ??= bytes.subarray(0, 64);
    await db.insertInto("import_chunks").values({ import_id: id, seq: seq++, bytes }).execute();
    await db.updateTable("imports").set({ updated_at: new Date().toISOString() }).where("id", "=", id).execute();
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (tooBig) break;
      pending.push(chunk);
      pendingBytes += chunk.length;
      size += chunk.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
    }
    if (tooBig || size > IMPORT_LIMITS.fileBytes) throw tooLarge();
    if (pendingBytes > 0) await flush();
    if (size === 0) throw jsonError(400, "The file is empty");
    await db.updateTable("imports").set({ byte_size: size }).where("id", "=", id).execute();
    return { id, start: start! };
  } catch (error) {
    await forgetFile(db, id, { row: true });
    throw error;
  }
}

const NOT_AN_EXPORT =
  "This is not a WordPress or Ghost export: choose the .xml file of WordPress's Tools > Export or the .json file of Ghost's Settings > Advanced > Export";

/**
 * Reads the multipart upload (field `file`, optional `siteUrl`) into a
 * reserved import's pieces. Throws a JSON Response: 400 (not multipart, no
 * file, not an export, a bad address), 409 (an import is under way), 413
 * (too large, counted as it arrives; the rest is left unread).
 */
export async function receiveUpload(
  db: Db,
  request: Request,
  by: string,
  onField?: (name: string, value: string) => void,
): Promise<ReceivedFile> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body)
    throw jsonError(400, `Send the export as multipart/form-data with one file field named "${IMPORT_FILE_FIELD}"`);
  if (Number(request.headers.get("Content-Length") ?? "0") > BODY_LIMITS.import) throw tooLarge();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { files: 1, fileSize: IMPORT_LIMITS.fileBytes + 1, fields: 10, fieldSize: 4096, parts: 20 },
    });
  } catch {
    throw jsonError(400, "The request is not a valid multipart/form-data upload");
  }
  const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
  const stored = await new Promise<{ id: string; start: Buffer; siteUrl: string } | undefined>((resolve, reject) => {
    let settled = false;
    let siteUrl = "";
    let part: Promise<{ id: string; start: Buffer }> | undefined;
    let file: Readable | undefined;
    const fail = (response: Response | Error) => {
      if (settled) return;
      settled = true;
      body.unpipe(parser);
      body.pause();
      // A part still being written stops, and forgets its pieces and its row (storeFilePart); one
      // refused before it read anything (409) has no reader to take the error: unheard, it ends the process.
      file?.on("error", () => {}).destroy(new Error("the upload was refused"));
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the route answers this Response
      reject(response);
    };
    parser.on("field", (name, value) => {
      if (name === IMPORT_SITE_URL_FIELD) siteUrl = value;
      onField?.(name, value);
    });
    parser.on("file", (name, stream, info) => {
      if (name !== IMPORT_FILE_FIELD || part) return stream.resume();
      file = stream;
      part = storeFilePart(db, stream, info.filename ?? "", by);
      part.catch((error: unknown) => fail(error as Response | Error));
    });
    parser.on("error", () => fail(jsonError(400, "The request is not a valid multipart/form-data upload")));
    parser.on("close", () => {
      if (settled) return;
      if (!part) {
        settled = true;
        return reject(jsonError(400, `No file: send the export in a file field named "${IMPORT_FILE_FIELD}"`));
      }
      part.then(
        (done) => {
          if (settled) return;
          settled = true;
          resolve({ ...done, siteUrl });
        },
        (error: unknown) => fail(error as Response | Error),
      );
    });
    let received = 0;
    body.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > BODY_LIMITS.import) fail(tooLarge());
    });
    body.on("error", () => fail(jsonError(400, "The upload was interrupted")));
    body.pipe(parser);
  });
  return checked(db, stored!);
}

async function checked(db: Db, stored: { id: string; start: Buffer; siteUrl: string }): Promise<ReceivedFile> {
  try {
    const kind = kindOf(stored.start);
    if (!kind) throw jsonError(400, NOT_AN_EXPORT);
    return { id: stored.id, kind, siteUrl: siteUrlOf(stored.siteUrl) };
  } catch (error) {
    await forgetFile(db, stored.id, { row: true });
    throw error;
  }
}

/** A file on the operator's disk (npm run admin -- import FILE) stored as an upload would be. */
export async function receiveFile(
  db: Db,
  stream: Readable,
  { fileName, by, siteUrl }: { fileName: string; by: string; siteUrl: string },
): Promise<ReceivedFile> {
  const stored = await storeFilePart(db, stream, fileName, by);
  return checked(db, { ...stored, siteUrl });
}
