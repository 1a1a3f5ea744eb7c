import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import {
  RateLimiterPostgres,
  RateLimiterSQLite,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { Connection } from "../db/db.server";

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
}

export type Reservation = { ok: true } | { ok: false; retryAfterMs: number };

/** Retry-After is whole seconds; never tell a client to retry at once. */
const MIN_RETRY_MS = 1000;

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
    async reserve(key) {
      try {
        await limiter.consume(key);
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
        .where("key", "=", limiter.getKey(key))
        .where("points", ">", 0)
        .where("expire", ">", Date.now())
        .execute();
    },
    async retryAfterMs(key) {
      const state = await limiter.get(key);
      return state && state.consumedPoints >= points ? Math.max(state.msBeforeNext, MIN_RETRY_MS) : 0;
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/**
 * Reserves one attempt on every (throttle, key) pair, or on none: when any of
 * them is full, the attempts the others let through are given back, and the
 * answer is the longest wait.
 */
export async function reserveAll(pairs: Array<[Throttle, string]>): Promise<Reservation> {
  const results = await Promise.all(pairs.map(([throttle, key]) => throttle.reserve(key)));
  const refused = results.flatMap((result) => (result.ok ? [] : [result.retryAfterMs]));
  if (refused.length === 0) return { ok: true };
  await Promise.all(pairs.flatMap(([throttle, key], i) => (results[i]!.ok ? [throttle.refund(key)] : [])));
  return { ok: false, retryAfterMs: Math.max(...refused) };
}

const KEY_MAX_LENGTH = 200;
const digest = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 40);

/**
 * The throttling key of a client address: an IPv4 address as it is; an
 * IPv4-mapped IPv6 address (::ffff:192.0.2.1) as its IPv4 address; any other
 * IPv6 address as its /64 network, the block one subscriber is usually given,
 * so walking through one's own /64 does not reset the count. Anything else
 * (a proxy's odd header) is hashed, so the key stays short and storable.
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
 * Keys are stored in a varchar(255) column; no e-mail address is longer than
 * 254 characters, so a longer name cannot be an account and is hashed.
 */
export function accountKey(email: string): string {
  return email.length <= KEY_MAX_LENGTH ? email : `long:${digest(email)}`;
}
