import { sql } from "kysely";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";

/**
 * Site time (ADR 077): the one clock that decides when a post is public and
 * when scheduled work is due, whichever machine asks. Several processes on
 * several machines share one PostgreSQL database; each machine's own clock
 * may be a few seconds off, and a post would then be out on one and not on
 * the other, its event fired early. So each process measures its offset from
 * the database's clock (NTP's arithmetic over a query of `clock_timestamp()`,
 * the best of a few round trips) before it takes requests and every few
 * minutes after, and site time is its own clock corrected by that offset. On
 * SQLite the site is one machine and one file: the offset is 0.
 *
 * Log timestamps, throttles, sessions and other expiries stay on the local
 * clock: a second's skew there changes nothing anyone sees.
 */

/** One round trip: this process's clock as the query left and as its answer came, and the database's in between (ms since the epoch). */
export interface ClockSample {
  sentMs: number;
  dbMs: number;
  receivedMs: number;
}

/** What one measurement found: the offset to add to this process's clock, and the round trip it came from. */
interface ClockOffset {
  offsetMs: number;
  roundTripMs: number;
}

/** Round trips per measurement; the shortest one wins (the least time for the answer to wait in a queue). */
const ROUND_TRIPS = 5;
/** Measured again this often: clocks drift slowly, and NTP steps are rare. */
const MEASURE_EVERY_MS = 5 * 60_000;
/** Over this, the process logs a warning: a post could show a second early or late somewhere without it. */
const SKEW_WARNING_MS = 1000;

let offsetMs = 0;

/** Site time, ms since the epoch: this process's clock plus its measured offset from the database's. */
export function siteNow(): number {
  return Date.now() + offsetMs;
}

/** Site time as a Date, for the reads that take `now`. */
export function siteDate(): Date {
  return new Date(siteNow());
}

/**
 * The offset NTP's way: the database read its clock, on average, halfway
 * through the round trip, so offset = dbTime - (sent + received) / 2, with an
 * error of at most half the round trip; the shortest trip gives the smallest.
 * A trip with a negative length (this clock stepped back mid-trip) is
 * ignored. Undefined without a usable sample.
 */
export function offsetOf(samples: readonly ClockSample[]): ClockOffset | undefined {
  let best: ClockOffset | undefined;
  for (const { sentMs, dbMs, receivedMs } of samples) {
    const roundTripMs = receivedMs - sentMs;
    if (roundTripMs < 0 || (best && roundTripMs >= best.roundTripMs)) continue;
    best = { offsetMs: Math.round(dbMs - (sentMs + receivedMs) / 2), roundTripMs };
  }
  return best;
}

/** Measures this process's offset from PostgreSQL's clock over a few round trips, one after another. */
async function measureOffset(db: Db): Promise<ClockOffset | undefined> {
  const samples: ClockSample[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const sentMs = Date.now();
    // clock_timestamp(), not now(): now() is the transaction's start, not the moment it is read.
    const { rows } = await sql<{
      ms: number;
    }>`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`.execute(db);
    const receivedMs = Date.now();
    samples.push({ sentMs, dbMs: Number(rows[0]!.ms), receivedMs });
  }
  return offsetOf(samples);
}

interface ClockLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * Measures the offset now (awaited: call it before the process takes
 * requests or runs jobs), then every few minutes for the process's life (the
 * timer keeps no process alive). Logs the offset once at start, and a warning each
 * time it is over a second. A measurement that fails keeps the last offset.
 * On SQLite nothing is measured.
 */
export async function startClock(db: Db, log: ClockLog): Promise<void> {
  if (!isPostgres(db)) return;
  const measure = async (atStart: boolean) => {
    try {
      const measured = await measureOffset(db);
      if (!measured) return;
      offsetMs = measured.offsetMs;
      if (atStart) log.info(measured, "site time: this machine's clock measured against the database's");
      if (Math.abs(offsetMs) > SKEW_WARNING_MS)
        log.warn(
          measured,
          "this machine's clock is more than a second off the database's: posts still go out by the database's clock, but set up time sync (chrony, docs/deploy.md)",
        );
    } catch (error) {
      log.warn({ err: error, offsetMs }, "could not measure the clock against the database; keeping the last offset");
    }
  };
  await measure(true);
  setInterval(() => void measure(false), MEASURE_EVERY_MS).unref();
}

/** startClock for a command: the skew warning in its own words on stderr, nothing else. */
export function startCommandClock(db: Db): Promise<void> {
  return startClock(db, { info() {}, warn: (_fields, message) => console.warn(message) });
}
