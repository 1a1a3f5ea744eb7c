import {
  RateLimiterPostgres,
  RateLimiterSQLite,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { Connection } from "./db/db.server";

/**
 * Counters live in the database (table rate_limits, created by our
 * migrations), so every app process sharing the database shares them.
 */
export interface Throttle {
  /** Milliseconds until the key may try again, or 0 when it may now. */
  retryAfterMs(key: string): Promise<number>;
  /** Count one event (a failure, a submission) against the key. */
  hit(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createThrottle(
  connection: Connection,
  { name, points, durationSeconds }: { name: string; points: number; durationSeconds: number },
): Throttle {
  const common = {
    keyPrefix: name,
    points,
    duration: durationSeconds,
    tableName: "rate_limits",
    tableCreated: true,
    clearExpiredByTimeout: false,
  };
  const limiter: RateLimiterAbstract =
    connection.kind === "sqlite"
      ? new RateLimiterSQLite({ ...common, storeClient: connection.sqlite, storeType: "better-sqlite3" })
      : new RateLimiterPostgres({ ...common, storeClient: connection.pool });

  return {
    async retryAfterMs(key) {
      const state = await limiter.get(key);
      return state && state.consumedPoints >= points ? Math.max(state.msBeforeNext, 1000) : 0;
    },
    async hit(key) {
      try {
        await limiter.consume(key);
      } catch (error) {
        // Over the limit is what retryAfterMs reports next; anything else is a real failure.
        if (!(error instanceof RateLimiterRes)) throw error;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
