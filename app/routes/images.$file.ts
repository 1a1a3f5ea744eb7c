import { IMAGE_VARIANT_CONTENT_TYPE, parseImageVariantPath } from "~/lib/images";
import { dbContext } from "~/server/platform/context.server";
import { findImageVariant, imageVariantExists } from "~/server/images/index.server";
import type { Route } from "./+types/images.$file";

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });

/**
 * Uploaded images, from the database. The URL holds the SHA-256 of the upload
 * and the variant's width, so its bytes never change: cached for a year,
 * immutable, with an ETag for the odd revalidation. Only WebP variants are
 * served, always as image/webp: the type is this route's, not a stored row's
 * (a restore checks those too, ADR 047), so no row can make /images serve HTML.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const parsed = parseImageVariantPath(params.file);
  if (!parsed) return notFound();
  const etag = `"${parsed.id.slice(0, 32)}-${parsed.width}"`;
  const cacheHeaders = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag };
  if (request.headers.get("If-None-Match") === etag) {
    // A deleted image (ADR 036) is a 404 to a revalidation too, not a 304.
    const stored = await imageVariantExists(context.get(dbContext), parsed.id, parsed.width);
    return stored ? new Response(null, { status: 304, headers: cacheHeaders }) : notFound();
  }
  const variant = await findImageVariant(context.get(dbContext), parsed.id, parsed.width);
  if (!variant) return notFound();
  return new Response(variant.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...cacheHeaders,
      "Content-Type": IMAGE_VARIANT_CONTENT_TYPE,
      "Content-Length": String(variant.bytes.byteLength),
    },
  });
}
