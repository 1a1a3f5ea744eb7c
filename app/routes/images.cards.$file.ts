import { dbContext } from "~/server/platform/context.server";
import { awaitShareCard, parseShareCardFile, readShareCard, shareCardExists } from "~/server/share-cards/index.server";
import type { Route } from "./+types/images.cards.$file";

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });

/**
 * A page's share card (ADR 073): the URL is the hash of what the card
 * shows, so its bytes never change (cached for a year, immutable). A card
 * its job is still drawing (a page named it a moment ago) is waited for a
 * few seconds; too many such waits at once are told to come back.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const key = parseShareCardFile(params.file);
  if (!key) return notFound();
  const db = context.get(dbContext);
  const etag = `"${key}"`;
  const cacheHeaders = { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag };
  if (request.headers.get("If-None-Match") === etag) {
    return (await shareCardExists(db, key)) ? new Response(null, { status: 304, headers: cacheHeaders }) : notFound();
  }
  const bytes = (await readShareCard(db, key)) ?? (await awaitShareCard(db, key));
  if (bytes === "busy") {
    return new Response("Busy", {
      status: 503,
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store", "Retry-After": "5" },
    });
  }
  if (!bytes) return notFound();
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { ...cacheHeaders, "Content-Type": "image/jpeg", "Content-Length": String(bytes.byteLength) },
  });
}
