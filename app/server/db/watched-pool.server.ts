import type { PostgresPool, PostgresPoolClient } from "kysely";
import type pg from "pg";
import { answeredWithin } from "./deadline.server";
import { isUnreachableError, QUERY_TIMED_OUT, type Reachability } from "./reachability.server";

/**
 * The pool on PostgreSQL (ADR 075): pg's own, with each query's outcome
 * reported to `reachability`, each query bounded by its deadline, and a
 * client whose query failed because its connection is gone (ended, reset,
 * or silent past the deadline) destroyed when it is released instead of
 * handed to the next query: after a network cut, a kept socket can stay
 * open and silent for hours, and every query given it would wait out the
 * deadline again. Kysely is given it; so are the few libraries that take
 * a pool (the throttle's), through `query`.
 */
export interface WatchedPool extends PostgresPool {
  /** One statement on a pooled client, with the pool's deadline or `deadlineMs`. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    config: pg.QueryConfig,
    deadlineMs?: number,
  ): Promise<pg.QueryResult<R>>;
}

/** `deadlineMs`: how long a query may wait for its answer (0: as long as it takes). */
export function watchedPool(pool: pg.Pool, reachability: Reachability, deadlineMs: number): WatchedPool {
  // One wrapper per pg client, so that Kysely's own map of connections (keyed by client) still finds it.
  const wrappers = new WeakMap<pg.PoolClient, WatchedClient>();
  const connect = async () => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      // Waiting in vain for a busy pool is load, not an outage: its queries report for themselves.
      if (pool.totalCount < pool.options.max) reachability.failed(error);
      throw error;
    }
    let wrapper = wrappers.get(client);
    if (!wrapper) wrappers.set(client, (wrapper = new WatchedClient(client, reachability, deadlineMs)));
    wrapper.broken = false;
    return wrapper;
  };
  return {
    connect,
    async query<R extends pg.QueryResultRow>(config: pg.QueryConfig, within = deadlineMs) {
      const client = await connect();
      try {
        return await client.run<pg.QueryResult<R>>(within, config);
      } finally {
        client.release();
      }
    },
    end: () => pool.end(),
  };
}

class WatchedClient implements PostgresPoolClient {
  broken = false;
  readonly #client: pg.PoolClient;
  readonly #reachability: Reachability;
  readonly #deadlineMs: number;

  constructor(client: pg.PoolClient, reachability: Reachability, deadlineMs: number) {
    this.#client = client;
    this.#reachability = reachability;
    this.#deadlineMs = deadlineMs;
  }

  // Kysely passes either a statement and its parameters or (for streams) a cursor; the site streams none.
  query(...args: unknown[]): never {
    return this.run(this.#deadlineMs, ...args) as never;
  }

  run<T>(deadlineMs: number, ...args: unknown[]): Promise<T> {
    // A connection whose query timed out still waits for that answer: what follows (a
    // transaction's ROLLBACK) would wait its own deadline behind it. It fails at once instead.
    if (this.broken) return Promise.reject(new Error(`${QUERY_TIMED_OUT} earlier on this connection`));
    const pending = (this.#client.query as (...a: unknown[]) => Promise<T>)(...args);
    return answeredWithin(pending, deadlineMs, QUERY_TIMED_OUT).then(
      (result) => {
        this.#reachability.reached();
        return result;
      },
      (error: unknown) => {
        if (isUnreachableError(error)) this.broken = true;
        else this.#reachability.reached();
        this.#reachability.failed(error);
        throw error;
      },
    );
  }

  release(): void {
    // pg's pool destroys a client released with an error rather than keeping it.
    this.#client.release(this.broken ? new Error("its connection failed") : undefined);
  }
}
