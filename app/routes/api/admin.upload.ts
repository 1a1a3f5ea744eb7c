import { signedInAdmin } from "~/server/identity/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import {
  ImageTooLargeError,
  IMAGES_BUSY_MESSAGE,
  IMAGES_BUSY_RETRY_SECONDS,
  imageWork,
  storeImage,
  UnsupportedImageError,
  readUploadedFile,
} from "~/server/images/index.server";
import { getLogger } from "~/server/platform/logger.server";
import type { Route } from "./+types/admin.upload";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * docs/product/contract.md#the-calls: 201 {url}; 400 no file; 413 over 10 MiB (or too many pixels);
 * 415 not a real image; and 503 with Retry-After while the process already
 * holds as many uploads as it takes (ADR 032).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  // Admitted before the file is read, so a refused upload is never held in
  // memory (its body is dropped unread, server/request-checks.ts).
  const admission = imageWork.tryAdmit();
  if (!admission) {
    getLogger().warn({ by: admin.email, admitted: imageWork.size }, "image upload refused: busy");
    return jsonError(503, IMAGES_BUSY_MESSAGE, { "Retry-After": String(IMAGES_BUSY_RETRY_SECONDS) });
  }
  try {
    const file = await readUploadedFile(request);
    const image = await admission.run(() => storeImage(context.get(dbContext), file));
    getLogger().info({ image: image.id, by: admin.email, bytes: file.byteLength }, "image uploaded");
    return Response.json(
      { url: image.url, width: image.width, height: image.height, variants: image.variants },
      { status: 201 },
    );
  } catch (error) {
    if (error instanceof UnsupportedImageError) return jsonError(415, error.message);
    if (error instanceof ImageTooLargeError) return jsonError(413, error.message);
    throw error;
  } finally {
    admission.release();
  }
}
