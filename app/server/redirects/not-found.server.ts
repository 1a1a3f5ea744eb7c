import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "kysely";
import { redactTokenSegments } from "~/lib/secret-paths";
import type { Db } from "../db/db.server";
import { getDb } from "../db/index.server";
import { defineFlusher } from "../jobs/index.server";
import { hostOf, printable } from "../platform/request-text.server";

/**
 * The not-found log (ADR 054): every GET or HEAD answered 404 is counted
 * per path, with its last time and the last referring host, so the owner
 * learns which old addresses people and search engines still ask for.
 *
 * It cannot be flooded: answers are counted in a Map in memory of at most
 * MAX_PENDING paths (past it, new paths wait for the next batch, dropped and
 * counted as such), written every few seconds in one batch of upserts, and
 * the table keeps at most MAX_ROWS paths, the least hit (then the oldest)
 * removed first (within a write, before its trim, up to MAX_PENDING more). A path is kept without its query (which may carry a
 * token), with each segment that holds a token (a share link's, an
 * invitation's, or anything long and random-looking) replaced by `[token]`,
 * and cut to MAX_PATH characters. Crawler probes of
 * other platforms' files (`/wp-login.php`, `/.env`, ...) are dropped: they
 * are not the site's old addresses, and a scan would push the real ones out.
 */

export const NOT_FOUND_LIMITS = {
  /** Characters of a path kept; a longer one is cut. */
  path: 300,
  /** Paths the table keeps. */
  rows: 5_000,
  /** Distinct paths counted in memory between two writes. */
  pending: 2_000,
  /** Characters of a referring host kept. */
  host: 253,
} as const;

/** Rows per upsert statement: well inside both backends' limits on bound values. */
const UPSERT_ROWS = 200;
/** A hit count stays a 32-bit integer. */
const MAX_HITS = 2_000_000_000;

interface Pending {
  hits: number;
  lastSeenAt: string;
  referrerHost: string | null;
}

/**
 * A probe of some other platform's files: a dot segment (/.env, /.git/config),
 * a script extension (.php, .asp, .aspx, .jsp, .cgi) or WordPress's admin
 * and cgi-bin. Plain text checks, no pattern that could backtrack.
 */
export function isProbe(path: string): boolean {
  const lower = path.toLowerCase();
  if (lower.includes("/.")) return true;
  const lastSegment = lower.slice(lower.lastIndexOf("/") + 1);
  for (const extension of [".php", ".asp", ".aspx", ".jsp", ".cgi"]) if (lastSegment.endsWith(extension)) return true;
  return lower.startsWith("/wp-admin") || lower.startsWith("/wp-includes") || lower.startsWith("/cgi-bin");
}

/** The referring host of a Referer header, cut; null for none or one that does not parse. */
export function referrerHostOf(referer: string | undefined): string | null {
  return hostOf(referer, NOT_FOUND_LIMITS.host);
}

/**
 * A counter's `finish` listener: one function for every answer, with no
 * closure made per request (Node calls it on the response, which knows its
 * request).
 */
function notFoundListener(counter: NotFoundCounter) {
  return function countIfNotFound(this: ServerResponse) {
    if (this.statusCode === 404) counter.record(this.req.url ?? "", this.req.headers.referer);
  };
}

export class NotFoundCounter {
  private pending = new Map<string, Pending>();
  /** 404s not counted since the last write: probes and paths past MAX_PENDING. */
  dropped = 0;

  /** Counts one 404 of `url` (path and query as sent). */
  record(url: string, referer: string | undefined, now = new Date()): void {
    const query = url.indexOf("?");
    const raw = query === -1 ? url : url.slice(0, query);
    if (!raw.startsWith("/") || isProbe(raw.slice(0, NOT_FOUND_LIMITS.path * 3))) {
      this.dropped++;
      return;
    }
    // Tokens are replaced before the path is cut, so no cut leaves a token's start behind.
    const bounded = redactTokenSegments(raw.slice(0, NOT_FOUND_LIMITS.path * 3));
    const path = printable(bounded.slice(0, NOT_FOUND_LIMITS.path)).slice(0, NOT_FOUND_LIMITS.path);
    const entry = this.pending.get(path);
    const referrerHost = referrerHostOf(referer);
    if (entry) {
      entry.hits = Math.min(entry.hits + 1, MAX_HITS);
      entry.lastSeenAt = now.toISOString();
      if (referrerHost) entry.referrerHost = referrerHost;
    } else if (this.pending.size < NOT_FOUND_LIMITS.pending) {
      this.pending.set(path, { hits: 1, lastSeenAt: now.toISOString(), referrerHost });
    } else {
      this.dropped++;
    }
  }

  private readonly countIfNotFound = notFoundListener(this);

  /** The node `finish` watch: counts a GET or HEAD that ended 404. */
  watch = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (req.method === "GET" || req.method === "HEAD") res.on("finish", this.countIfNotFound);
    next();
  };

  /**
   * Writes what was counted since the last write, in batches of upserts, then
   * trims the table to MAX_ROWS. What was counted meanwhile waits for the next.
   */
  async flush(db: Db): Promise<void> {
    if (this.pending.size === 0) return;
    // In path order, as every process writes: two PostgreSQL processes upserting the same new paths
    // in different orders could each hold a row the other waits for (a deadlock, the batch lost).
    const batch = [...this.pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.pending = new Map();
    this.dropped = 0;
    for (let i = 0; i < batch.length; i += UPSERT_ROWS) {
      const rows = batch.slice(i, i + UPSERT_ROWS).map(([path, entry]) => ({
        path,
        hits: entry.hits,
        last_seen_at: entry.lastSeenAt,
        referrer_host: entry.referrerHost,
      }));
      await db
        .insertInto("not_found_paths")
        .values(rows)
        .onConflict((conflict) =>
          conflict.column("path").doUpdateSet({
            hits: sql<number>`case when not_found_paths.hits + excluded.hits > ${MAX_HITS} then ${MAX_HITS} else not_found_paths.hits + excluded.hits end`,
            last_seen_at: sql<string>`excluded.last_seen_at`,
            referrer_host: sql<string | null>`coalesce(excluded.referrer_host, not_found_paths.referrer_host)`,
          }),
        )
        .execute();
    }
    await trimNotFound(db);
  }
}

/** Keeps the MAX_ROWS most hit paths (the newest first among equal hits). */
async function trimNotFound(db: Db, max: number = NOT_FOUND_LIMITS.rows): Promise<void> {
  const row = await db
    .selectFrom("not_found_paths")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  const excess = Number(row.count) - max;
  if (excess <= 0) return;
  const least = db
    .selectFrom("not_found_paths")
    .select("path")
    .orderBy("hits", "asc")
    .orderBy("last_seen_at", "asc")
    .orderBy("path", "asc")
    .limit(excess);
  // PostgreSQL and SQLite both take a subquery with LIMIT inside IN when it is wrapped once more.
  await db
    .deleteFrom("not_found_paths")
    .where("path", "in", db.selectFrom(least.as("least")).select("least.path"))
    .execute();
}

/** How often what was counted is written. */
const NOT_FOUND_FLUSH_MS = 3_000;

/** The process's counter: the server's watch feeds it, a flusher writes it (init). */
export const notFoundCounter = new NotFoundCounter();

/**
 * Registers the counter's writer with the jobs domain (ADR 067): a flusher
 * that writes it every NOT_FOUND_FLUSH_MS and at shutdown, one write at a
 * time; a failed write is logged and its counts lost, never retried into a
 * growing backlog.
 */
export function init(): void {
  defineFlusher("not-found log", NOT_FOUND_FLUSH_MS, () => notFoundCounter.flush(getDb()));
}

export interface NotFoundEntry {
  path: string;
  hits: number;
  lastSeenAt: string;
  referrerHost: string | null;
}

/** One page of the log, most hits first (then the most recent), and how many paths it holds. */
export async function listNotFound(
  db: Db,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ entries: NotFoundEntry[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db
      .selectFrom("not_found_paths")
      .selectAll()
      .orderBy("hits", "desc")
      .orderBy("last_seen_at", "desc")
      .orderBy("path", "asc")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom("not_found_paths")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    entries: rows.map((row) => ({
      path: row.path,
      hits: Number(row.hits),
      lastSeenAt: row.last_seen_at,
      referrerHost: row.referrer_host,
    })),
    total: Number(counted.count),
  };
}

/** "Dismiss": forgets a path (it comes back if asked for again). False when it was not in the log. */
export async function dismissNotFound(db: Db, path: string): Promise<boolean> {
  if (path.length > NOT_FOUND_LIMITS.path || printable(path) !== path) return false;
  const result = await db.deleteFrom("not_found_paths").where("path", "=", path).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
