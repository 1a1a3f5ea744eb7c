import type pg from "pg";
import { getLogger } from "../platform/logger.server";

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
const GONE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Query read timeout",
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
  /** When a query last got an answer (ms since epoch). */
  #lastReached = Date.now();
  #probing = false;
  readonly #probe: () => Promise<void>;

  /** `probe` tries a fresh connection; it rejects while the database cannot be reached. */
  constructor(probe: () => Promise<void>) {
    this.#probe = probe;
  }

  /** How long the database has been unreachable (ms), or undefined while it answers. */
  unreachableFor(now = Date.now()): number | undefined {
    return this.#unreachableSince === undefined ? undefined : now - this.#unreachableSince;
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
  }

  /** Reports a failed query or connection; only one that says the database is gone counts. */
  failed(error: unknown): void {
    if (!isUnreachableError(error) || this.#unreachableSince !== undefined) return;
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
    setTimeout(tryOnce, PROBE_EVERY_MS).unref();
  }
}

/** The probe: a connection of its own (a pooled one may be a dead socket), one query, closed. */
export function connectionProbe(options: pg.ClientConfig, Client: typeof pg.Client): () => Promise<void> {
  return async () => {
    const client = new Client(options);
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("select 1");
    } finally {
      await client.end().catch(() => {});
    }
  };
}
