import { createHash, randomBytes } from "node:crypto";
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
 * cache stores a placeholder and puts the request's own nonce back in.
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
  /** The body with the CSP nonce replaced by the placeholder. */
  body: Buffer;
  /** Does the body contain the placeholder (HTML with scripts)? */
  hasNonce: boolean;
  etag: string;
}

/** Headers of a stored response that are replayed; the rest are the request's own (CSP, security headers). */
const REPLAYED_HEADERS = ["content-type", "cache-control", "x-total-count", "link", "last-modified", "content-language", "x-robots-tag"];
/** Only ASCII letters and digits: cannot clash with JSON or HTML escaping. */
const PLACEHOLDER = `cspnonce${randomBytes(12).toString("hex")}`;

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
    sizeCalculation: (entry) => entry.body.length + 512,
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
    const nonce = String(res.locals.cspNonce ?? "");
    const body = entry.hasNonce ? Buffer.from(entry.body.toString("utf8").replaceAll(PLACEHOLDER, nonce)) : entry.body;
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
      const nonce = String(res.locals.cspNonce ?? "");
      let body = Buffer.concat(chunks);
      const text = nonce ? body.toString("utf8") : "";
      const hasNonce = nonce !== "" && text.includes(nonce);
      if (hasNonce) body = Buffer.from(text.replaceAll(nonce, PLACEHOLDER));
      const headers: Array<[string, string]> = [];
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      // The route's own ETag when it set one (its clients already hold it).
      const etag =
        (res.getHeader("etag") as string | undefined) ??
        `W/"${createHash("sha1").update(version).update("\0").update(body).digest("base64url")}"`;
      nextScheduledChange().then(
        (expiresAt) => entries.set(key, { version, expiresAt, headers, body, hasNonce, etag }),
        () => {},
      );
    });
    next();
  };
}
