import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import {
  RateLimiterPostgres,
  RateLimiterSQLite,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { Connection } from "../db/db.server";
import { getLogger } from "./logger.server";
import { hashThrottleKey, resolveThrottleKey, type KeyMaterial } from "./throttle-key.server";

/**
 * Counters live in the database (table rate_limits, created by our
 * migrations), so every app process sharing the database shares them.
 *
 * Each key has a fixed window: it opens with the first counted attempt and
 * lasts `durationSeconds`; at most `points` attempts are let through in it.
 * Attempts are reserved BEFORE the work they guard (ADR 021): `reserve` is
 * one atomic upsert in either store, so parallel requests, in one process or
 * several, cannot all pass a check made before any of them was counted.
 * Refused attempts do not move the window's end, so a key always gets its
 * attempts back `durationSeconds` after its first one.
 *
 * What is stored is never the key as given (an address, an e-mail) but its
 * keyed hash (throttle-key.server.ts). Rows whose window has ended are
 * deleted from the reservation path, at most once a minute per process, so
 * the table holds only live windows.
 */
export interface Throttle {
  /** Counts one attempt against the key, unless its window is already full. */
  reserve(key: string): Promise<Reservation>;
  /** Gives back an attempt `reserve` let through (the work did not count). */
  refund(key: string): Promise<void>;
  /** Milliseconds until the key may try again, or 0 when it may now (counts nothing). */
  retryAfterMs(key: string): Promise<number>;
  /** Forgets the key's attempts. */
  reset(key: string): Promise<void>;
  /** The key's row in rate_limits (its `key` column): for tests and tools. */
  storedKey(key: string): Promise<string>;
}

export type Reservation = { ok: true } | { ok: false; retryAfterMs: number };

/** Retry-After is whole seconds; never tell a client to retry at once. */
const MIN_RETRY_MS = 1000;

export interface ThrottleOptions {
  name: string;
  points: number;
  durationSeconds: number;
  /** The site's key material outside the database, if any: keys are hashed with a key derived from it. */
  keyMaterial: KeyMaterial;
}

export function createThrottle(
  connection: Connection,
  { name, points, durationSeconds, keyMaterial }: ThrottleOptions,
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
      : // The watched pool: the throttle's queries have the web's deadline and report to reachability.
        new RateLimiterPostgres({ ...common, storeClient: connection.pool, storeType: "pool" });

  // Resolved on first use; a failure (the database down) is not kept.
  let hmacKey: Promise<Buffer> | undefined;
  const hashed = async (key: string) => {
    hmacKey ??= resolveThrottleKey(connection, keyMaterial).catch((error: unknown) => {
      hmacKey = undefined;
      throw error;
    });
    return hashThrottleKey(await hmacKey, name, key);
  };

  return {
    async reserve(key) {
      const stored = await hashed(key);
      await pruneNowAndThen(connection);
      try {
        await limiter.consume(stored);
        return { ok: true };
      } catch (error) {
        // A RateLimiterRes is "over the limit"; anything else is a real failure.
        if (!(error instanceof RateLimiterRes)) throw error;
        return { ok: false, retryAfterMs: Math.max(error.msBeforeNext, MIN_RETRY_MS) };
      }
    },
    async refund(key) {
      // Only within the window the attempt was counted in, and never below
      // zero: a refund that arrives after the window ended must not lend the
      // next window an extra attempt (limiter.reward would).
      await connection.db
        .updateTable("rate_limits")
        .set((eb) => ({ points: eb("points", "-", 1) }))
        .where("key", "=", limiter.getKey(await hashed(key)))
        .where("points", ">", 0)
        .where("expire", ">", Date.now())
        .execute();
    },
    async retryAfterMs(key) {
      const state = await limiter.get(await hashed(key));
      return state && state.consumedPoints >= points ? Math.max(state.msBeforeNext, MIN_RETRY_MS) : 0;
    },
    async reset(key) {
      await limiter.delete(await hashed(key));
    },
    async storedKey(key) {
      return limiter.getKey(await hashed(key));
    },
  };
}

/**
 * Reserves one attempt on every (throttle, key) pair, or on none. Pairs are
 * reserved in order and the first refusal stops: a later pair is not
 * touched, so it gets no row. Put the pair a stranger cannot vary first (the
 * client address before the account): an address already full then adds
 * nothing to the table, however many new e-mails it sends. The attempts the
 * earlier pairs let through are given back; the answer is that wait.
 */
export async function reserveAll(pairs: Array<[Throttle, string]>): Promise<Reservation> {
  const reserved: Array<[Throttle, string]> = [];
  for (const [throttle, key] of pairs) {
    const result = await throttle.reserve(key);
    if (!result.ok) {
      await Promise.all(reserved.map(([earlier, earlierKey]) => earlier.refund(earlierKey)));
      return result;
    }
    reserved.push([throttle, key]);
  }
  return { ok: true };
}

/** How often one process deletes the rows whose window has ended. */
const PRUNE_INTERVAL_MS = 60_000;
const lastPruned = new WeakMap<Connection, number>();

/** Deletes every row whose window has ended; answers how many. */
export async function pruneExpired(connection: Connection, now = Date.now()): Promise<number> {
  const result = await connection.db.deleteFrom("rate_limits").where("expire", "<", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Prunes from the reservation path: on a process's first reservation, then
 * at most once a minute. No timer of its own; a failed prune is logged and
 * does not fail the reservation (the next minute tries again).
 */
async function pruneNowAndThen(connection: Connection): Promise<void> {
  const now = Date.now();
  if (now - (lastPruned.get(connection) ?? 0) < PRUNE_INTERVAL_MS) return;
  lastPruned.set(connection, now);
  try {
    await pruneExpired(connection, now);
  } catch (error) {
    getLogger().warn({ err: error }, "could not delete expired throttle counters");
  }
}

const KEY_MAX_LENGTH = 200;
const digest = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 40);

/**
 * The throttling key of a client address: an IPv4 address as it is; an
 * IPv4-mapped IPv6 address (::ffff:192.0.2.1) as its IPv4 address; any other
 * IPv6 address as its /64 network, the block one subscriber is usually given,
 * so walking through one's own /64 does not reset the count. Anything else
 * (a proxy's odd header) is hashed, so the key stays short. The throttle
 * stores only a keyed hash of what this answers.
 */
export function addressKey(address: string): string {
  const bare = address.trim();
  if (!ipaddr.isValid(bare)) return `other:${digest(bare)}`;
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((group) => group.toString(16));
  return `${groups.join(":")}::/64`;
}

/**
 * The throttling key of a sign-in name (already trimmed and lower-cased).
 * No e-mail address is longer than 254 characters, so a longer name cannot
 * be an account and is hashed short. The throttle stores only a keyed hash.
 */
export function accountKey(email: string): string {
  return email.length <= KEY_MAX_LENGTH ? email : `long:${digest(email)}`;
}
