import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import type { StaleAnswer } from "../platform/context.server";

/**
 * A cache of whole public answers (pages, feeds, the public API) in front of
 * React Router, so a popular article is rendered once per change instead of
 * once per visit (ADR 024).
 *
 Two steps (server/app.ts):
 *
 * - `answerHits` runs on the bare request, once the access log and the
 *   security headers that every answer gets are in place and before Express:
 *   it answers a GET or HEAD without a body from an entry that is still
 *   current, in the entry's own compressed copy where the client accepts one.
 *   It is the only place a hit is answered; anything else goes on to Express.
 * - `fillOnMiss` runs in Express after compression(), just before React
 *   Router: it keeps a copy of the answer the app writes (before compression)
 *   for a GET that `answerHits` saw miss, and stores it as the answer ends.
 *
 * Correct with several processes: every entry remembers the content version
 * it was rendered at (app/server/db/content-version.server.ts: one cheap read per request, bumped by
 * every write of public content in any process) and the next scheduled
 * publication, and is used only while both still hold.
 *
 * Opt-in: only a 200 answer (or the landing page's 404, `keepsNotFound`) to a GET whose route set a `Cache-Control`
 * containing "public" and set no cookie is stored. Entries are keyed by
 * `cacheKey`, which names the answer rather than the URL's spelling
 * (key.server.ts). Public pages carry no CSP nonce and read no session, so a
 * body is the same for every visitor, signed in or not, and gets its
 * compressed copies once. So the request's cookies play no part: a visitor's
 * cookie, real or made up, neither skips the cache nor fills it with anything
 * else (ADR 048; before, any cookie named like the session's made a render).
 */

interface PageCacheOptions {
  /** The current content version (the request's own read, shared with the redirects in server/app.ts). */
  readVersion: (req: IncomingMessage) => Promise<string>;
  /** When public content next changes by itself (ms since epoch), if ever. */
  nextScheduledChange: () => Promise<number | undefined>;
  /**
   * The time an entry's expiry is compared with (ms since epoch): site time
   * (ADR 077), the clock `nextScheduledChange` is read by, so that a page
   * turns over when the post is out by the database's clock, not this
   * machine's. Date.now by default.
   */
  now?: () => number;
  /** Total size of the stored bodies and their compressed copies (PAGE_CACHE_MB). */
  maxBytes: number;
  /**
   * The entry's key for a request URL (path and query as sent), or undefined
   * for a request the cache neither answers nor fills: the same answer must
   * get the same key however it is spelled (key.server.ts).
   */
  cacheKey: (url: string) => string | undefined;
  /** Keys of answers visitors can vary without end (key.server.ts isOpenEndedKey): at most `maxOpenEnded` are kept. */
  openEnded?: (key: string) => boolean;
  /**
   * Keys whose 404 answer is kept too (key.server.ts keepsNotFound): the
   * landing page every unknown path shows answers 404 (ADR 054), and one
   * shared entry keeps a flood of unknown paths as cheap as a hit.
   */
  keepsNotFound?: (key: string) => boolean;
  /** How many open-ended entries are kept; the oldest stored goes first. */
  maxOpenEnded?: number;
  /**
   * While the database cannot be reached, how long ago it last answered
   * (ms); undefined while it answers (db/reachability.server.ts, ADR 075).
   */
  outage?: () => number | undefined;
  /** For how long after the database last answered a stored entry is still served during an outage (ms). */
  staleLimitMs?: number;
  /** Where each stored entry is reported at debug level, with the cache's entry count and bytes. */
  logger?: { debug(fields: object, message: string): void };
}

type Encoding = "br" | "gzip";

interface Miss {
  key: string;
  version: string;
  finish?: () => void;
  /** Its answer has ended and its entry is still to be kept: requests for it wait for the entry. */
  storing?: boolean;
}
/** An entry's compressed copies, each made when a hit first asks for it (undefined if that failed). */
type Copies = Partial<Record<Encoding, Promise<Buffer | undefined>>>;

interface Entry {
  version: string;
  /** 200, or 404 for a key that keeps its not-found answer. */
  status: number;
  /** Do not use at or after this moment (ms since epoch). */
  expiresAt: number | undefined;
  headers: Array<[string, string]>;
  body: Buffer;
  etag: string;
  /** compression() varies this answer on Accept-Encoding (a compressible type without no-transform). */
  varies: boolean;
  /**
   * Compressed copies of the body, each made once on the thread pool when a
   * hit first asks for it: an entry that is stored and never asked for again
   * (a crawler's walk of the archive) costs no compression and no copies.
   */
  copies: Copies;
  /** The size of the copies made so far, counted in the cache's bytes. */
  copiesBytes: number;
}

/** compression() leaves bodies under this many bytes alone; server/app.ts passes it to compression(). */
export const COMPRESSION_THRESHOLD = 1024;
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/**
 * compression()'s own settings (zlib's default gzip level, brotli quality 4),
 * and the body's size as brotli's hint: with it, brotli sizes its window and
 * tables to the page instead of its 4 MB default.
 */
function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === "gzip") return gzip(body);
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
  return brotli(body, { params: { [BROTLI_PARAM_QUALITY]: 4, [BROTLI_PARAM_SIZE_HINT]: body.length } });
}
/**
 * The encodings a hit can be sent in, and compression()'s preference among
 * them, for the negotiator compression() itself uses. (compression() can also
 * deflate; a client that prefers deflate gets gzip or, accepting neither,
 * the body as it is.)
 */
const ENCODINGS = ["br", "gzip", "identity"];
const PREFERRED_ENCODINGS = ["br", "gzip"];

/**
 * Headers of a stored answer that are replayed; the rest are the request's
 * own (the security headers, the access log's). Vary is compression()'s.
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

/**
 * If-None-Match against the entry's ETag, weak comparison (RFC 9110 13.1.2).
 * Not Express's `req.fresh`: it answers 200 to any request that also says
 * `Cache-Control: no-cache`, which fetch() adds to every conditional request;
 * the site is the origin of the answer, and the origin's validator matched.
 */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag.replace(/^W\//, ""));
}

/**
 * Keeps a copy of what the app writes to `res`, and calls `onEnd` as the
 * answer ends with a reader of the whole body (joined only if it is wanted),
 * or undefined once it passed `limit` bytes (such an answer is never stored).
 */
function recordAnswer(res: Response, limit: number, onEnd: (body: (() => Buffer) | undefined) => void) {
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
    if (size > limit) tooLarge = true;
    else chunks.push(Buffer.from(buffer));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    const ended = end(chunk, ...rest);
    onEnd(tooLarge ? undefined : () => Buffer.concat(chunks));
    return ended;
  }) as Response["end"];
}

/** An answer any visitor may be given: a public 200 (or a kept 404, ADR 054) that sets no cookie. */
function shareable(res: Response, notFoundKept: boolean): boolean {
  const cacheControl = String(res.getHeader("cache-control") ?? "");
  const status = res.statusCode === 200 || (notFoundKept && res.statusCode === 404);
  // A stale answer a render gave way to (ADR 075) is an old page, never stored under the new version.
  // (Appended to the "miss" the hit path set, hence "includes".)
  const stale = String(res.getHeader("x-cache") ?? "").includes("stale");
  return status && !stale && /\bpublic\b/.test(cacheControl) && !res.getHeader("set-cookie");
}

/** What a hit replays of an answer: its stored headers, its ETag and whether it varies on Accept-Encoding. */
function replayable(res: Response, version: string, body: Buffer) {
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
  return { headers, etag, varies };
}

/** A hit: the stored headers and body, 304 when the client holds it, compressed as the client accepts. */
async function sendEntry(
  req: IncomingMessage,
  res: ServerResponse,
  entry: Entry,
  label: string,
  copyOf: (encoding: Encoding) => Promise<Buffer | undefined>,
) {
  res.setHeader("ETag", entry.etag);
  res.setHeader("X-Cache", label);
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  if (entry.status === 200 && etagMatches(req.headers["if-none-match"], entry.etag)) {
    res.writeHead(304).end();
    return;
  }
  let body = entry.body;
  if (req.method === "GET" && entry.varies && body.length >= COMPRESSION_THRESHOLD) {
    const encoding = new Negotiator(req).encoding(ENCODINGS, PREFERRED_ENCODINGS);
    const copy = encoding === "br" || encoding === "gzip" ? await copyOf(encoding) : undefined;
    if (copy) {
      body = copy;
      res.setHeader("Content-Encoding", encoding!);
    }
  }
  res.setHeader("Content-Length", body.length);
  res.writeHead(entry.status);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

export function pageCache({
  readVersion,
  nextScheduledChange,
  now = Date.now,
  maxBytes,
  cacheKey,
  openEnded = () => false,
  keepsNotFound = () => false,
  maxOpenEnded = 256,
  outage = () => undefined,
  staleLimitMs = 0,
  logger,
}: PageCacheOptions) {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => entry.body.length + entry.copiesBytes + 512,
  });
  /**
   * The entry's copy in `encoding`, made on first demand; once made it counts
   * in the cache's size (a new object for the same entry, so the cache
   * measures it again). A failure leaves the hit uncompressed.
   */
  function copyOf(key: string, entry: Entry, encoding: Encoding): Promise<Buffer | undefined> {
    const { copies } = entry;
    copies[encoding] ??= compress(entry.body, encoding).then(
      (copy) => {
        const stored = entries.peek(key);
        if (stored?.copies === copies) entries.set(key, { ...stored, copiesBytes: stored.copiesBytes + copy.length });
        return copy;
      },
      () => undefined,
    );
    return copies[encoding];
  }
  // The open-ended entries in the order they were stored: past the cap, the oldest leaves the cache.
  const openEndedKeys = new LRUCache<string, true>({
    max: maxOpenEnded,
    dispose: (_value, key, reason) => {
      if (reason === "evict") entries.delete(key);
    },
  });
  /** The key and version of each GET that `answerHits` could not answer, for `fillOnMiss`. */
  const misses = new WeakMap<IncomingMessage, Miss>();
  /**
   * The GETs the app is rendering now, by key: one render per entry. A
   * request for the same answer at the same version waits for that answer to
   * end, then takes the entry it left (or, if it left none, renders its own).
   * After a write every cached page is stale at once, and without this each
   * concurrent request for a popular page rendered it again.
   */
  const rendering = new Map<string, { version: string; done: Promise<void> }>();

  /** The entry for `key` if it is current at `version`. */
  function current(key: string, version: string): Entry | undefined {
    const cached = entries.get(key);
    if (cached && cached.version === version && (cached.expiresAt === undefined || now() < cached.expiresAt)) {
      return cached;
    }
    return undefined;
  }

  const send = (req: IncomingMessage, res: ServerResponse, key: string, entry: Entry, label = "hit") =>
    sendEntry(req, res, entry, label, (encoding) => copyOf(key, entry, encoding));

  /**
   * Answers a GET or HEAD without a body from a current entry, or hands the
   * request to `next`. A request with a body is left to Express, whose checks
   * refuse one too large; a failed version read leaves the request to the app.
   */
  function answerHits(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const { method, headers } = req;
    if (method !== "GET" && method !== "HEAD") return next();
    const key = cacheKey(req.url ?? "");
    const hasBody =
      (headers["content-length"] !== undefined && headers["content-length"] !== "0") ||
      headers["transfer-encoding"] !== undefined;
    if (key === undefined || hasBody) {
      if (method === "GET") res.setHeader("X-Cache", "miss");
      return next();
    }
    void readVersion(req).then(
      (version) => {
        const entry = current(key, version);
        if (entry) return send(req, res, key, entry);
        // Out of date, but nothing newer can be rendered while the database is away.
        if (servesStale()) return answerStale(req, res, key, next);
        const render = rendering.get(key);
        if (render?.version === version) {
          void render.done.then(() => {
            const rendered = current(key, version);
            if (rendered) return send(req, res, key, rendered);
            // That render failed: if the database went away meanwhile, the old entry still serves.
            answerStale(req, res, key, () => {
              missed(req, res, key, version);
              next();
            });
          });
          return;
        }
        if (method === "GET") {
          // Freed once fillOnMiss keeps or refuses its entry, or when the answer ends and none is being kept.
          let finish = () => {};
          const done = new Promise<void>((resolve) => (finish = resolve));
          rendering.set(key, { version, done });
          void done.then(() => {
            if (rendering.get(key)?.done === done) rendering.delete(key);
          });
          res.once("close", () => !misses.get(req)?.storing && finish());
          missed(req, res, key, version, finish);
        }
        next();
      },
      () => answerStale(req, res, key, next),
    );
  }

  /**
   * The version could not be read, or the entry is out of date and cannot
   * be rendered anew. If that is because the database cannot be reached,
   * and it answered within the stale limit, the entry the cache holds is
   * served whatever version it was rendered at, marked
   * `X-Cache: stale` (the access log and nginx's log show it): a page a
   * little out of date is better than no page. Otherwise the app answers
   * (with 503 while the database is away).
   */
  function answerStale(req: IncomingMessage, res: ServerResponse, key: string, next: () => void) {
    const entry = servesStale() ? entries.get(key) : undefined;
    if (!entry) return next();
    void send(req, res, key, entry, "stale");
  }

  /** True while the database is away and answered within the stale limit. */
  const servesStale = (since = outage()): boolean => since !== undefined && since <= staleLimitMs;

  /** Marks a GET the cache could not answer, for `fillOnMiss`, which calls `finish` once it has stored the answer or refused it. */
  function missed(req: IncomingMessage, res: ServerResponse, key: string, version: string, finish?: () => void) {
    if (req.method !== "GET") return;
    res.setHeader("X-Cache", "miss");
    misses.set(req, { key, version, finish });
  }

  /**
   * Keeps a copy of what the app writes for a GET that missed, and stores it
   * as the answer ends if it may be shared. The next scheduled publication is
   * read before the app renders, like the version: a post that comes due
   * meanwhile is either in the answer or ends its entry.
   */
  function fillOnMiss(req: Request, res: Response, next: NextFunction) {
    const miss = misses.get(req);
    if (!miss) return next();
    const { key, version, finish = () => {} } = miss;
    // Settled long before the render is, as a rule; "pending" until then.
    let scheduled: { expiresAt: number | undefined } | undefined | "pending" = "pending";
    const scheduledRead = nextScheduledChange().then(
      (expiresAt) => (scheduled = { expiresAt }),
      () => (scheduled = undefined),
    );
    // Stored as the answer ends, before its last bytes can reach the client:
    // whoever asks next, the same client included, finds the entry.
    recordAnswer(res, maxBytes / 16, (readBody) => {
      if (readBody === undefined || !shareable(res, keepsNotFound(key))) return finish();
      const body = readBody();
      const { headers, etag, varies } = replayable(res, version, body);
      const keepEntry = (read: { expiresAt: number | undefined } | undefined) => {
        if (!read) return finish();
        entries.set(key, {
          version,
          status: res.statusCode,
          expiresAt: read.expiresAt,
          headers,
          body,
          etag,
          varies,
          copies: {},
          copiesBytes: 0,
        });
        if (openEnded(key)) openEndedKeys.set(key, true);
        logger?.debug({ cache: { key, entries: entries.size, bytes: entries.calculatedSize } }, "page cache stored");
        finish();
      };
      miss.storing = true;
      if (scheduled === "pending") void scheduledRead.then(keepEntry);
      else keepEntry(scheduled);
    });
    next();
  }

  /**
   * For a GET or HEAD that reached the app while the database is away: the
   * entry for its URL, stale, if there is one, else `otherwise`.
   */
  function answerStaleOr(req: IncomingMessage, res: ServerResponse, otherwise: () => void): void {
    const key = req.method === "GET" || req.method === "HEAD" ? cacheKey(req.url ?? "") : undefined;
    if (key === undefined) return otherwise();
    answerStale(req, res, key, otherwise);
  }

  /**
   * The entry for `url` while the database is away and answered within the
   * stale limit, for a render that met the outage midway (the root route's
   * middleware gives it instead of a 503, ADR 075).
   */
  function staleAnswer(url: string, metOutage = false): StaleAnswer | undefined {
    const key = cacheKey(url);
    // A render that met the outage may end after the database is back (mid-restart, it can blink).
    const entry = key !== undefined && (metOutage || servesStale()) ? entries.get(key) : undefined;
    return entry && { status: entry.status, headers: entry.headers, body: entry.body };
  }

  return { answerHits, answerStaleOr, fillOnMiss, staleAnswer };
}
