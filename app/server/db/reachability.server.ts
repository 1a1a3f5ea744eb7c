import type pg from "pg";
import { getLogger } from "../platform/logger.server";
import { answeredWithin } from "./deadline.server";

/**
 * Whether this process can reach PostgreSQL now (ADR 075). While it cannot,
 * the site answers what it can without it (cached public pages, stale) and
 * everything else at once with 503 and Retry-After, instead of each request
 * waiting out the pool's time-outs; a probe every second notices the
 * database's return, and everything works again without a restart.
 *
 * Every query through the pool reports here (watched-pool.server.ts): a
 * failure that says the connection is gone marks the database unreachable,
 * any answer marks it reachable. An error of the query itself (a constraint,
 * a syntax error) says the database answered.
 */

/** How often the probe tries a fresh connection while the database is unreachable. */
const PROBE_EVERY_MS = 1000;

/** SQLSTATEs that mean the server went away or will not take connections now. */
const GONE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Node's and pg's own words for a connection that failed, ended or timed out. */
const GONE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/**
 * pg's word for a query that had no answer within the time-out: the network
 * may be cut, or the query slow or waiting on a lock. It counts as gone (a
 * request must not wait out a second time-out); the probe ends a false alarm.
 */
export const QUERY_TIMED_OUT = "Query read timeout";

const GONE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  QUERY_TIMED_OUT,
  "Client has encountered a connection error",
  "Client was closed",
  "Connection ended",
];

/** True when `error` says the database could not be reached, not that it refused the query. */
export function isUnreachableError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (GONE_CODES.has(code) || GONE_STATES.has(code) || code.startsWith("08"))) {
    return true;
  }
  return typeof message === "string" && GONE_MESSAGES.some((words) => message.startsWith(words));
}

export class Reachability {
  /** When the database was last found unreachable, if it still is (ms since epoch). */
  #unreachableSince: number | undefined;
  /** When a query last failed for want of the database (ms since epoch; 0: never). */
  #lastUnreachableAt = 0;
  /** When a query last got an answer (ms since epoch). */
  #lastReached = Date.now();
  #probing = false;
  /** Those waiting for the database to answer again (answered()). */
  #waiters: Array<() => void> = [];
  readonly #probe: () => Promise<void>;

  /** `probe` tries a fresh connection; it rejects while the database cannot be reached. */
  constructor(probe: () => Promise<void>) {
    this.#probe = probe;
  }

  /** How long the database has been unreachable (ms), or undefined while it answers. */
  unreachableFor(now = Date.now()): number | undefined {
    return this.#unreachableSince === undefined ? undefined : now - this.#unreachableSince;
  }

  /** True when a query failed for want of the database at or after `since` (ms since epoch), even if it is back now. */
  failedSince(since: number): boolean {
    return this.#lastUnreachableAt >= since;
  }

  /** How long ago a query last got an answer (ms). */
  sinceReached(now = Date.now()): number {
    return now - this.#lastReached;
  }

  reached(): void {
    this.#lastReached = Date.now();
    if (this.#unreachableSince === undefined) return;
    getLogger().info({ downMs: Date.now() - this.#unreachableSince }, "the database answers again");
    this.#unreachableSince = undefined;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Resolves once the database answers again: at once while it does, else when a query or the probe reaches it. */
  answered(): Promise<void> {
    if (this.#unreachableSince === undefined) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Reports a failed query or connection; only one that says the database is
   * gone counts, or one that had no answer within the time-out: a request
   * must not wait out a second one. A slow query or a lock wait can look the
   * same; the probe, which starts at once, then ends it within a moment.
   */
  failed(error: unknown): void {
    if (!isUnreachableError(error)) return;
    this.#lastUnreachableAt = Date.now();
    if (this.#unreachableSince !== undefined) return;
    this.#unreachableSince = Date.now();
    getLogger().warn({ err: error }, "the database cannot be reached: answering from the page cache or with 503");
    this.#startProbe();
  }

  #startProbe(): void {
    if (this.#probing) return;
    this.#probing = true;
    const tryOnce = () => {
      if (this.#unreachableSince === undefined) {
        this.#probing = false;
        return;
      }
      this.#probe().then(
        () => {
          this.reached();
          this.#probing = false;
        },
        () => setTimeout(tryOnce, PROBE_EVERY_MS).unref(),
      );
    };
    tryOnce();
  }
}

/** Each step of the probe (a new connection, then its query) has its answer within this long, or the probe fails. */
const PROBE_WITHIN_MS = 4000;

/**
 * The probe: a connection of its own (a pooled one may be a dead socket),
 * one query, closed; each step bounded in time (`withinMs`), decided after
 * the loop reads its sockets, and its socket destroyed rather than closed
 * politely when the other end may never answer.
 */
export function connectionProbe(
  options: pg.ClientConfig,
  Client: typeof pg.Client,
  withinMs = PROBE_WITHIN_MS,
): () => Promise<void> {
  return async () => {
    // pg's own time-outs are timers decided before the poll: the probe's deadlines replace them.
    const client = new Client({ ...options, connectionTimeoutMillis: 0, query_timeout: undefined });
    client.on("error", () => {});
    try {
      await answeredWithin(client.connect(), withinMs, "the probe had no connection in time");
      await answeredWithin(client.query("select 1"), withinMs, "the probe had no answer in time");
    } finally {
      destroyClient(client);
    }
  };
}

/** Ends a client at once, whether or not its server still answers. */
export function destroyClient(client: pg.Client): void {
  void client.end().catch(() => {});
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
