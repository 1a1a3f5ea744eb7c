/** Small helpers shared by the JSON API routes. */

export function jsonError(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ error }, { status, headers });
}

export const MAX_JSON_BYTES = 1024 * 1024;

/**
 * Reads a JSON body, answering 413 past the limit (without reading further)
 * and 400 when it is not JSON.
 */
export async function readJsonBody(request: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const tooLarge = () =>
    jsonError(413, `Request body is too large (${maxBytes} bytes at most)`, { Connection: "close" });
  if (Number(request.headers.get("Content-Length") ?? "0") > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw jsonError(400, "Request body must be valid JSON");
  }
}

/** Throws 405 for a method the route does not serve. */
export function methodNotAllowed(allowed: string[]): Response {
  return jsonError(405, "Method not allowed", { Allow: allowed.join(", ") });
}

const WHOLE_NUMBER = /^\d{1,9}$/;

export type PageParams = { limit: number; offset: number };

/** limit 1-100 (default 100), offset 0 or more (default 0); anything else is a 400. */
export function parsePageParams(url: URL): PageParams | Response {
  const limitRaw = url.searchParams.get("limit");
  const offsetRaw = url.searchParams.get("offset");
  let limit = 100;
  let offset = 0;
  if (limitRaw !== null) {
    if (!WHOLE_NUMBER.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 100) {
      return jsonError(400, "limit must be a whole number from 1 to 100");
    }
    limit = Number(limitRaw);
  }
  if (offsetRaw !== null) {
    if (!WHOLE_NUMBER.test(offsetRaw)) return jsonError(400, "offset must be a whole number, 0 or more");
    offset = Number(offsetRaw);
  }
  return { limit, offset };
}

/**
 * Cache-Control of public answers (pages, feeds, the public API): browsers and
 * proxies may keep them but must revalidate (ETag, 304) every time, so an edit
 * or a scheduled post shows at once. "public" also lets the server's own page
 * cache keep them (server/page-cache.ts).
 */
export const PUBLIC_CACHE_CONTROL = "public, no-cache";
