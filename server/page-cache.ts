import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
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
 * session cookie always go to the app. Entries are keyed by `cacheKey`, which
 * names the answer rather than the URL's spelling (ADR 022). Cached answers
 * carry no CSP nonce (public pages have none, ADR 020), so a body is the same
 * for every visitor and gets its compressed copies once.
 *
 * Every cached answer carries an ETag (the route's own, or one made from the
 * body and version); a matching If-None-Match gets 304.
 *
 * `fastPath` serves hits before Express runs at all (ADR 019): same entries,
 * same rules, same headers; whatever it cannot answer exactly as the full
 * stack would goes to the full stack.
 */

export interface PageCacheOptions {
  /** The current content version. */
  readVersion: () => Promise<string>;
  /** When public content next changes by itself (ms since epoch), if ever. */
  nextScheduledChange: () => Promise<number | undefined>;
  /** Total size of the stored bodies. */
  maxBytes?: number;
  /** Cookie whose presence means "do not use or fill the cache". */
  sessionCookie?: string;
  /**
   * The entry's key for a request URL (path and query as sent), or undefined
   * for a request the cache neither answers nor fills: the same answer must
   * get the same key however it is spelled (server/cache-key.ts, ADR 022).
   */
  cacheKey: (url: string) => string | undefined;
  /** Keys of answers visitors can vary without end (server/cache-key.ts isOpenEndedKey): at most `maxOpenEnded` are kept. */
  openEnded?: (key: string) => boolean;
  /** How many open-ended entries are kept; the oldest stored goes first. */
  maxOpenEnded?: number;
  /** Where each stored entry is reported at debug level, with the cache's entry count and bytes. */
  logger?: { debug(fields: object, message: string): void };
}

type Encoding = "br" | "gzip";

interface Entry {
  version: string;
  /** Do not use at or after this moment (ms since epoch). */
  expiresAt: number | undefined;
  headers: Array<[string, string]>;
  body: Buffer;
  etag: string;
  /** compression() varies this answer on Accept-Encoding (a compressible type without no-transform). */
  varies: boolean;
  /** Compressed copies of the body, made once when it is stored. */
  encoded: Partial<Record<Encoding, Buffer>>;
}

/** compression() leaves bodies under this many bytes alone; server/app.ts passes it to compression(). */
export const COMPRESSION_THRESHOLD = 1024;
/** compression()'s own settings: zlib's default gzip level, brotli quality 4. */
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** What the fast path needs from the rest of the app (server/app.ts). */
export interface FastPathOptions {
  /** A fresh CSP nonce, for the answer's Content-Security-Policy header. */
  nonce: () => string;
  /** The security headers of an answer carrying this nonce, as [name, value, name, value, ...]. */
  securityHeaders: (nonce: string) => string[];
  /** The access-log line of an answer, once it is written. */
  answered: (req: IncomingMessage, res: ServerResponse, startedAt: number) => void;
  /** The full stack, for every request the fast path does not answer. */
  fallback: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Headers of a stored response that are replayed; the rest are the request's
 * own (CSP, security headers). Vary is compression()'s, spelled as it sends it.
 */
const REPLAYED_HEADERS = [
  "content-type",
  "cache-control",
  "x-total-count",
  "link",
  "last-modified",
  "content-language",
  "x-robots-tag",
  "Vary",
];
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag.replace(/^W\//, ""));
}

/**
 * The encoding compression() would choose for this Accept-Encoding, when the
 * header is a plain list of names (what browsers and tools send): br, else
 * gzip, else identity. Undefined when it takes more (q-values, "*", or deflate
 * as the only choice): the full stack negotiates those.
 */
export function plainEncoding(header: string | undefined): Encoding | "identity" | undefined {
  if (!header) return "identity";
  const names = new Set<string>();
  for (const item of header.split(",")) {
    const name = item.trim().toLowerCase();
    if (name.includes(";") || name.includes("*")) return undefined;
    names.add(name);
  }
  if (names.has("br")) return "br";
  if (names.has("gzip")) return "gzip";
  return names.has("deflate") ? undefined : "identity";
}

/** Compressed copies of a body, when compression() would compress it on a hit. */
async function encodingsOf(body: Buffer, varies: boolean): Promise<Entry["encoded"]> {
  if (!varies || body.length < COMPRESSION_THRESHOLD) return {};
  const [br, gz] = await Promise.all([brotli(body, BROTLI_OPTIONS), gzip(body)]);
  return { br, gzip: gz };
}

export function pageCache({
  readVersion,
  nextScheduledChange,
  maxBytes = 64 * 1024 * 1024,
  sessionCookie = "session",
  cacheKey,
  openEnded = () => false,
  maxOpenEnded = 256,
  logger,
}: PageCacheOptions) {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) =>
      entry.body.length + (entry.encoded.br?.length ?? 0) + (entry.encoded.gzip?.length ?? 0) + 512,
  });
  // The open-ended entries in the order they were stored: past the cap, the oldest leaves the cache.
  const openEndedKeys = new LRUCache<string, true>({
    max: maxOpenEnded,
    dispose: (_value, key, reason) => {
      if (reason === "evict") entries.delete(key);
    },
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
    res.status(200);
    res.setHeader("Content-Length", entry.body.length);
    if (req.method === "HEAD") res.end();
    else res.end(entry.body);
  }

  /** The entry for `key` if it is current at `version`. */
  function current(key: string, version: string): Entry | undefined {
    const cached = entries.get(key);
    if (cached && cached.version === version && (cached.expiresAt === undefined || Date.now() < cached.expiresAt)) {
      return cached;
    }
    return undefined;
  }

  async function middleware(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== "GET" && req.method !== "HEAD") || cookiePattern.test(req.get("cookie") ?? "")) {
      return next();
    }
    const key = cacheKey(req.originalUrl);
    if (key === undefined) {
      if (req.method === "GET") res.setHeader("X-Cache", "miss");
      return next();
    }
    let version: string;
    try {
      version = await readVersion();
    } catch (error) {
      return next(error);
    }
    const cached = current(key, version);
    if (cached) {
      send(req, res, cached);
      return;
    }
    if (req.method === "HEAD") return next();

    // Miss: let the app answer, keeping a copy of what it writes. The next
    // scheduled publication is read before it renders, like the version: a
    // post that comes due meanwhile is either in the answer or ends its entry.
    res.setHeader("X-Cache", "miss");
    // Settled long before the render is, as a rule; "pending" until then.
    let scheduled: { expiresAt: number | undefined } | undefined | "pending" = "pending";
    const scheduledRead = nextScheduledChange().then(
      (expiresAt) => (scheduled = { expiresAt }),
      () => (scheduled = undefined),
    );
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
          : typeof chunk === "string"
            ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
            : undefined;
      if (!buffer) return;
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
      const ended = end(chunk, ...rest);
      // Stored as the answer ends, before its last bytes can reach the client:
      // whoever asks next, the same client included, finds the entry.
      store();
      return ended;
    }) as Response["end"];

    const store = () => {
      const cacheControl = String(res.getHeader("cache-control") ?? "");
      if (tooLarge || res.statusCode !== 200 || !/\bpublic\b/.test(cacheControl) || res.getHeader("set-cookie")) return;
      const body = Buffer.concat(chunks);
      const headers: Array<[string, string]> = [];
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      // The route's own ETag when it set one (its clients already hold it).
      const etag =
        (res.getHeader("etag") as string | undefined) ??
        `W/"${createHash("sha1").update(version).update("\0").update(body).digest("base64url")}"`;
      // compression() sets Vary: Accept-Encoding exactly on the answers it may compress.
      const varies = /\baccept-encoding\b/i.test(String(res.getHeader("vary") ?? ""));
      const keepEntry = (read: { expiresAt: number | undefined } | undefined) => {
        if (!read) return;
        const entry: Entry = {
          version,
          expiresAt: read.expiresAt,
          headers,
          body,
          etag,
          varies,
          encoded: {},
        };
        entries.set(key, entry);
        if (openEnded(key)) openEndedKeys.set(key, true);
        logger?.debug(
          { cache: { key: key, entries: entries.size, bytes: entries.calculatedSize } },
          "page cache stored",
        );
        // Until its compressed copies are ready, the full stack compresses it.
        encodingsOf(body, varies).then(
          (encoded) => {
            if (entries.peek(key) === entry && encoded.br) entries.set(key, { ...entry, encoded });
          },
          () => {},
        );
      };
      if (scheduled === "pending") void scheduledRead.then(keepEntry);
      else keepEntry(scheduled);
    };
    next();
  }

  /**
   * Answers a request from a current entry before Express runs, or gives it
   * to `fallback` (ADR 019). The same rules as the middleware: GET or HEAD
   * without a session cookie, an entry current at the version read now. It
   * also leaves to the full stack requests with a body (the body-size check)
   * and answers it could not compress exactly as compression() would.
   */
  function fastPath({ nonce, securityHeaders, answered, fallback }: FastPathOptions) {
    /** Writes the answer; false when the full stack must give it. */
    async function serve(req: IncomingMessage, res: ServerResponse, key: string, startedAt: number): Promise<boolean> {
      const entry = current(key, await readVersion());
      if (!entry) return false;
      const notModified = etagMatches(req.headers["if-none-match"], entry.etag);
      let body = entry.body;
      let encoding: Encoding | "identity" = "identity";
      if (!notModified && req.method === "GET" && entry.varies && body.length >= COMPRESSION_THRESHOLD) {
        const chosen = plainEncoding(req.headers["accept-encoding"]);
        if (chosen === undefined || (chosen !== "identity" && !entry.encoded[chosen])) return false;
        encoding = chosen;
        if (chosen !== "identity") body = entry.encoded[chosen]!;
      }
      const headers = securityHeaders(nonce());
      headers.push("ETag", entry.etag, "X-Cache", "hit");
      for (const [name, value] of entry.headers) headers.push(name, value);
      if (!notModified) headers.push("Content-Length", String(body.length));
      if (encoding !== "identity") headers.push("Content-Encoding", encoding);
      res.writeHead(notModified ? 304 : 200, headers);
      if (req.method === "GET" && !notModified) res.end(body);
      else res.end();
      answered(req, res, startedAt);
      return true;
    }

    return function answer(req: IncomingMessage, res: ServerResponse): void {
      const startedAt = Date.now();
      const { method, headers } = req;
      const key = method === "GET" || method === "HEAD" ? cacheKey(req.url ?? "") : undefined;
      if (
        key === undefined ||
        !entries.has(key) ||
        (headers["content-length"] !== undefined && headers["content-length"] !== "0") ||
        headers["transfer-encoding"] !== undefined ||
        cookiePattern.test(headers.cookie ?? "")
      ) {
        return fallback(req, res);
      }
      // A failed version read is the full stack's to report (500).
      serve(req, res, key, startedAt).then(
        (done) => done || fallback(req, res),
        () => res.headersSent || fallback(req, res),
      );
    };
  }

  return { middleware, fastPath };
}
