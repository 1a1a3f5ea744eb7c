import { requireAdminApi } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed } from "~/server/http.server";
import { ImageTooLargeError, storeImage, UnsupportedImageError } from "~/server/images.server";
import { getLogger } from "~/server/logger.server";
import { readUploadedFile } from "~/server/uploads.server";
import type { Route } from "./+types/admin.upload";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminApi(request);
  return methodNotAllowed(["POST"]);
}

/** PRODUCT §3: 201 {url}; 400 no file; 413 over 10 MiB (or too many pixels); 415 not a real image. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const file = await readUploadedFile(request);
  try {
    const image = await storeImage(getDb(), file);
    getLogger().info({ image: image.id, by: admin.email, bytes: file.byteLength }, "image uploaded");
    return Response.json(
      { url: image.url, width: image.width, height: image.height, variants: image.variants },
      { status: 201 },
    );
  } catch (error) {
    if (error instanceof UnsupportedImageError) return jsonError(415, error.message);
    if (error instanceof ImageTooLargeError) return jsonError(413, error.message);
    throw error;
  }
}
