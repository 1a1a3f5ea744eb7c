/** Small helpers shared by the JSON API routes. */

export function jsonError(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ error }, { status, headers });
}

/**
 * A refused attempt (a password, a code): `Retry-After` when it was throttled
 * (429) or found the password checks busy (503), nothing otherwise.
 */
export function retryAfterHeaders(refusal: { status: number; retryAfterSeconds?: number }): HeadersInit | undefined {
  return (refusal.status === 429 || refusal.status === 503) && refusal.retryAfterSeconds !== undefined
    ? { "Retry-After": String(refusal.retryAfterSeconds) }
    : undefined;
}

/**
 * A form page's `headers` export: an action's Retry-After (a throttled or
 * busy password check) reaches the page's answer, which React Router would
 * otherwise drop (it keeps only cookies from a route without `headers`).
 */
export function formRetryAfter({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}

/** A refused attempt as JSON: its status and message, and `Retry-After` when it should come back later. */
export function refusedAttempt(refusal: { status: number; error: string; retryAfterSeconds?: number }): Response {
  return jsonError(refusal.status, refusal.error, retryAfterHeaders(refusal));
}

/**
 * Body limits, in bytes: the one place they are set. server/app.ts refuses a
 * declared Content-Length over the largest that applies before any route
 * runs; the readers below count the bytes as they arrive, so a chunked body
 * (no Content-Length) stops at the same limit.
 */
export const BODY_LIMITS = {
  /** JSON API bodies (a post with its markdown is the largest). */
  json: 1024 * 1024,
  /** The contact form's JSON. */
  contact: 64 * 1024,
  /** HTML form posts of the admin screens (sign-in, setup, messages). */
  form: 16 * 1024,
  /** An image upload: 10 MiB per file (docs/product/contract.md#the-calls) and room for the multipart framing. */
  upload: 10 * 1024 * 1024 + 64 * 1024,
  /** A WordPress or Ghost export to import (ADR 074): 80 MiB and the form's framing. */
  import: 80 * 1024 * 1024 + 64 * 1024,
  /** A backup file to restore from the admin (ADR 078): 2 GiB (MAX_RESTORE_FILE_BYTES) and the form's framing. */
  restore: 2 * 1024 * 1024 * 1024 + 64 * 1024,
} as const;

/** 413 for a body over `maxBytes`; the connection closes after it, the rest unread (server/app.ts dropUnreadBody). */
export function bodyTooLarge(
  maxBytes: number,
  message = `Request body is too large (${maxBytes} bytes at most)`,
): Response {
  return jsonError(413, message, { Connection: "close" });
}

/**
 * Reads a request body, at most `maxBytes`: a declared length over it is
 * refused before reading, and a body without one (chunked) is refused as soon
 * as it passes the limit. The rest is left unread here, not destroyed, so
 * the 413 still reaches the client; the server then drops it.
 */
export async function readBody(request: Request, maxBytes: number): Promise<Buffer> {
  if (Number(request.headers.get("Content-Length") ?? "0") > maxBytes) throw bodyTooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw jsonError(400, "The request body was interrupted");
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      reader.releaseLock();
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

/**
 * Where a string in a request cannot be stored as it is: NUL (which
 * PostgreSQL's text cannot hold) or half of a UTF-16 surrogate pair (which no
 * UTF-8 database can). Both are refused the same way on every backend.
 */
export function isStorableText(value: string): boolean {
  return !value.includes("\0") && value.isWellFormed();
}

const unstorableMessage = (field: string) =>
  `${field} contains a character that cannot be stored (a NUL character or an unpaired surrogate)`;

/**
 * The first string in a parsed JSON value (keys included) that cannot be
 * stored, named by its path ("title", "socialUrls.facebook", "[2]"). Walks
 * with its own stack: a deeply nested body cannot overflow the call stack.
 */
export function findUnstorableField(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === "string") {
      if (!isStorableText(item)) return path || "body";
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push([item[i], `${path}[${i}]`]);
    } else if (typeof item === "object" && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) return path || "body";
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}

/** No request of ours nests deeper than a few levels; a body may nest this deep at most. */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACKET = 0x5d; // ]
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** How deep the arrays and objects of a JSON text nest, in one pass over its bytes (strings skipped). */
export function jsonDepth(bytes: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) deepest = Math.max(deepest, ++depth);
    else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
  }
  return deepest;
}

/**
 * Reads a JSON body (at most `maxBytes`): 413 past the limit, 400 when it is
 * not JSON, nests deeper than MAX_JSON_DEPTH (parsing half a million levels
 * would hold the event loop), or a string in it cannot be stored (naming the
 * field).
 */
export async function readJsonBody(request: Request, maxBytes: number = BODY_LIMITS.json): Promise<unknown> {
  const bytes = await readBody(request, maxBytes);
  if (jsonDepth(bytes) > MAX_JSON_DEPTH)
    throw jsonError(400, `Request body nests too deeply (${MAX_JSON_DEPTH} levels at most)`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    throw jsonError(400, "Request body must be valid JSON");
  }
  const unstorable = findUnstorableField(value);
  if (unstorable !== undefined) throw jsonError(400, unstorableMessage(unstorable));
  return value;
}

/**
 * Reads an HTML form post (application/x-www-form-urlencoded, what the admin
 * screens' forms send), at most `maxBytes`. Unlike request.formData(), which
 * reads any body whole, it stops at the limit. Throws a JSON Response for a
 * body over the limit, of another type, or with a value that cannot be stored.
 */
export async function readFormBody(request: Request, maxBytes: number = BODY_LIMITS.form): Promise<URLSearchParams> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw jsonError(415, "Send the form as application/x-www-form-urlencoded");
  }
  const form = new URLSearchParams((await readBody(request, maxBytes)).toString("utf8"));
  for (const [name, value] of form) {
    if (!isStorableText(name) || !isStorableText(value))
      throw jsonError(400, unstorableMessage(isStorableText(name) ? name : "form"));
  }
  return form;
}

/** Throws 405 for a method the route does not serve. */
export function methodNotAllowed(allowed: string[]): Response {
  return jsonError(405, "Method not allowed", { Allow: allowed.join(", ") });
}

/**
 * Cache-Control of public answers (pages, feeds, the public API): browsers and
 * proxies may keep them but must revalidate (ETag, 304) every time, so an edit
 * or a scheduled post shows at once. "public" also lets the server's own page
 * cache keep them (app/server/page-cache/cache.server.ts).
 */
export const PUBLIC_CACHE_CONTROL = "public, no-cache";
