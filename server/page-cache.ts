import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";

/**
 * A cache of whole public responses (pages, feeds, the public API) in front of
 * React Router, so a popular article is rendered once per change instead of
 * once per visit (ADR 017).
 *
 * Correct with several processes: every entry remembers the content version
 * it was rendered at (one cheap read per request, bumped by every write of
 * public content in any process) and the next scheduled publication, and is
 * used only while both still hold.
 *
 * Opt-in: only a 200 answer to a GET whose route set a `Cache-Control`
 * containing "public" and no cookie is stored, and requests that carry a
 * session cookie always go to the app. The CSP nonce differs per response: the
 * cache stores the body cut where the nonce stood and puts each request's own
 * nonce in the cuts.
 *
 * Every cached answer carries an ETag (the route's own, or one made from the
 * body and version); a matching If-None-Match gets 304.
 */

export interface PageCacheOptions {
  /** The current content version. */
  readVersion(): Promise<string>;
  /** When public content next changes by itself (ms since epoch), if ever. */
  nextScheduledChange(): Promise<number | undefined>;
  /** Total size of the stored bodies. */
  maxBytes?: number;
  /** Cookie whose presence means "do not use or fill the cache". */
  sessionCookie?: string;
}

interface Entry {
  version: string;
  /** Do not use at or after this moment (ms since epoch). */
  expiresAt: number | undefined;
  headers: Array<[string, string]>;
  /** The body, cut where the CSP nonce stood (one part when it has none). */
  parts: Buffer[];
  /** Bytes of the body without its nonces. */
  size: number;
  etag: string;
}

/** Headers of a stored response that are replayed; the rest are the request's own (CSP, security headers). */
const REPLAYED_HEADERS = ["content-type", "cache-control", "x-total-count", "link", "last-modified", "content-language", "x-robots-tag"];
/** The pieces of `body` between the occurrences of `separator`. */
function splitAt(body: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(separator); at !== -1; at = body.indexOf(separator, start)) {
    parts.push(body.subarray(start, at));
    start = at + separator.length;
  }
  parts.push(body.subarray(start));
  return parts;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag.replace(/^W\//, ""));
}

export function pageCache({
  readVersion,
  nextScheduledChange,
  maxBytes = 64 * 1024 * 1024,
  sessionCookie = "session",
}: PageCacheOptions) {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => entry.size + 512,
  });
  const cookiePattern = new RegExp(`(?:^|;\\s*)${sessionCookie}=`);

  function send(req: Request, res: Response, entry: Entry) {
    res.setHeader("ETag", entry.etag);
    res.setHeader("X-Cache", "hit");
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    if (etagMatches(req.get("if-none-match"), entry.etag)) {
      res.status(304).end();
      return;
    }
    let body = entry.parts[0]!;
    if (entry.parts.length > 1) {
      const nonce = Buffer.from(String(res.locals.cspNonce ?? ""));
      const pieces: Buffer[] = [body];
      for (let i = 1; i < entry.parts.length; i++) pieces.push(nonce, entry.parts[i]!);
      body = Buffer.concat(pieces);
    }
    res.status(200);
    res.setHeader("Content-Length", body.length);
    if (req.method === "HEAD") res.end();
    else res.end(body);
  }

  return async function pageCacheMiddleware(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== "GET" && req.method !== "HEAD") || cookiePattern.test(req.get("cookie") ?? "")) {
      return next();
    }
    const key = `${req.method === "HEAD" ? "GET" : req.method} ${req.originalUrl}`;
    let version: string;
    try {
      version = await readVersion();
    } catch (error) {
      return next(error);
    }
    const cached = entries.get(key);
    if (cached && cached.version === version && (cached.expiresAt === undefined || Date.now() < cached.expiresAt)) {
      send(req, res, cached);
      return;
    }
    if (req.method === "HEAD") return next();

    // Miss: let the app answer, keeping a copy of what it writes.
    res.setHeader("X-Cache", "miss");
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function" || tooLarge) return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
      size += buffer.length;
      if (size > maxBytes / 16) tooLarge = true;
      else chunks.push(Buffer.from(buffer));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as Response["end"];

    res.once("finish", () => {
      const cacheControl = String(res.getHeader("cache-control") ?? "");
      if (tooLarge || res.statusCode !== 200 || !/\bpublic\b/.test(cacheControl) || res.getHeader("set-cookie")) return;
      const body = Buffer.concat(chunks);
      const nonce = String(res.locals.cspNonce ?? "");
      const parts = nonce ? splitAt(body, Buffer.from(nonce)) : [body];
      const headers: Array<[string, string]> = [];
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      // The route's own ETag when it set one (its clients already hold it).
      const etag =
        (res.getHeader("etag") as string | undefined) ??
        `W/"${parts.reduce((hash, part) => hash.update(part), createHash("sha1").update(version).update("\0")).digest("base64url")}"`;
      nextScheduledChange().then(
        (expiresAt) => entries.set(key, { version, expiresAt, headers, parts, size: body.length, etag }),
        () => {},
      );
    });
    next();
  };
}
