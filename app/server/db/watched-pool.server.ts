import type { PostgresPool, PostgresPoolClient } from "kysely";
import type pg from "pg";
import { isUnreachableError, QUERY_TIMED_OUT, type Reachability } from "./reachability.server";

/**
 * The pool Kysely is given on PostgreSQL (ADR 075): pg's own, with each
 * query's outcome reported to `reachability`, and a client whose query
 * failed because its connection is gone (ended, reset, or silent past the
 * query time-out) destroyed when it is released instead of handed to the
 * next query: after a network cut, a kept socket can stay open and silent
 * for hours, and every query given it would wait out the time-out again.
 */
export function watchedPool(pool: pg.Pool, reachability: Reachability): PostgresPool {
  // One wrapper per pg client, so that Kysely's own map of connections (keyed by client) still finds it.
  const wrappers = new WeakMap<pg.PoolClient, WatchedClient>();
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        // Waiting in vain for a busy pool is load, not an outage: its queries report for themselves.
        if (pool.totalCount < pool.options.max) reachability.failed(error);
        throw error;
      }
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = new WatchedClient(client, reachability)));
      wrapper.broken = false;
      return wrapper;
    },
    end: () => pool.end(),
  };
}

class WatchedClient implements PostgresPoolClient {
  broken = false;
  readonly #client: pg.PoolClient;
  readonly #reachability: Reachability;

  constructor(client: pg.PoolClient, reachability: Reachability) {
    this.#client = client;
    this.#reachability = reachability;
  }

  // Kysely passes either a statement and its parameters or (for streams) a cursor; the site streams none.
  query(...args: unknown[]): never {
    // A connection whose query timed out still waits for that answer: what follows (a
    // transaction's ROLLBACK) would wait its own time-out behind it. It fails at once instead.
    if (this.broken) return Promise.reject(new Error(`${QUERY_TIMED_OUT} earlier on this connection`)) as never;
    const pending = (this.#client.query as (...a: unknown[]) => Promise<unknown>)(...args);
    return pending.then(
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
    ) as never;
  }

  release(): void {
    // pg's pool destroys a client released with an error rather than keeping it.
    this.#client.release(this.broken ? new Error("its connection failed") : undefined);
  }
}
