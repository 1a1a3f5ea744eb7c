import { createHash, randomBytes } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Database } from "../db/schema.server";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { addressKey } from "../platform/throttle.server";
import { defineFlusher, defineJob, defineSchedule } from "../jobs/index.server";
import {
  analyticsCounter,
  type AnalyticsCounter,
  type Dimension,
  type MarkDimension,
  type PendingDay,
  type RawIdentity,
  utcDay,
  visitorHash,
} from "./counter.server";
import { DIRECT, OTHER, UNKNOWN } from "./views.server";

/**
 * Writing the counts (ADR 056): every FLUSH_MS and at shutdown, each process
 * adds what it counted to the day's rows in one transaction. Visitors are
 * summed across processes through the day's visitor hashes: a hash inserted
 * by one process is not inserted again by another (the primary key), and
 * only inserted hashes add to the visitors. The day's salt and its hashes are
 * deleted once the day is over; daily rows older than the retention go.
 *
 * Bounded: at most `keysPerDay` keys per day and dimension (past it, the
 * least counted are summed into "(other)"), at most `marksPerDay` visitor
 * hashes per day (past it views still count, new visitors no longer).
 *
 * Against one client faking the numbers, with what is known per address
 * kept as a hash under the day's salt (analytics_addresses, an IPv6 address
 * by its /64) and deleted with it:
 * - an address counts as at most `visitorsPerAddress` visitors a day (a new
 *   User-Agent past it is no new visitor; its views still count);
 * - a source or campaign gets a row of its own only once visitors from two
 *   addresses came from it that day. Until then it is held
 *   (analytics_held_keys): its views are counted under "(other)" and moved to
 *   its row when the second address comes. An address holds at most
 *   `heldPerAddress` keys a day, a dimension `heldPerDay`; past those a new
 *   key's views stay in "(other)".
 * Both are decided in the write, which runs one process at a time (the lock
 * below; SQLite's `begin immediate`), so they hold across processes exactly.
 */

export const STORE_LIMITS = {
  keysPerDay: 200,
  marksPerDay: 500_000,
  visitorsPerAddress: 20,
  heldPerAddress: 50,
  heldPerDay: 100_000,
} as const;

/** How often the counts are written: a view shows in the numbers within this and the write's own time. */
const FLUSH_MS = 3_000;

/** Rows per insert statement: well inside both backends' limits on bound values. */
const ROWS_PER_STATEMENT = 200;
/** A count stays a 32-bit integer. */
const MAX_COUNT = 2_000_000_000;
/** PostgreSQL advisory lock of the analytics write: one process writes at a time, so caps are exact and no two deadlock. */
const WRITE_LOCK = 560_056;

type Trx = Transaction<Database>;

const capped = (column: string) =>
  sql<number>`case when ${sql.ref(column)} + excluded.${sql.ref(column.split(".")[1]!)} > ${MAX_COUNT} then ${MAX_COUNT} else ${sql.ref(column)} + excluded.${sql.ref(column.split(".")[1]!)} end`;

/** The day's salt: made by the first process that needs it, read by the others. Only today's is ever made. */
async function todaysSalt(db: Db, day: string): Promise<string> {
  await db
    .insertInto("analytics_salts")
    .values({ day, salt: randomBytes(32).toString("base64url") })
    .onConflict((conflict) => conflict.column("day").doNothing())
    .execute();
  const row = await db.selectFrom("analytics_salts").select("salt").where("day", "=", day).executeTakeFirstOrThrow();
  return row.salt;
}

/** The salt of an earlier day if no process has deleted it yet. */
async function earlierSalt(trx: Trx, day: string): Promise<string | undefined> {
  const row = await trx.selectFrom("analytics_salts").select("salt").where("day", "=", day).executeTakeFirst();
  return row?.salt;
}

interface Count {
  hits: number;
  visitors: number;
}

/** Adds to a Map of counts by "dimension\tkey". */
function add(counts: Map<string, Count>, dimension: Dimension, key: string, hits: number, visitors: number) {
  const id = `${dimension}\t${key}`;
  const count = counts.get(id);
  if (count) {
    count.hits += hits;
    count.visitors += visitors;
  } else counts.set(id, { hits, visitors });
}

/** One row of analytics_visitor_hashes. */
interface MarkRow {
  day: string;
  hash: string;
  dimension: string;
  key: string;
}

/** A visitor of one write: its hash, the hash of its address, and the marks it earned. */
interface Visitor {
  hash: string;
  address: string;
  rows: MarkRow[];
}

/** What is known today of one address (by its hash), and what this write adds. */
interface AddressTally {
  visitors: number;
  held: number;
  admitted: number;
  newVisitors: number;
  newHeld: number;
}

/**
 * An address's hash: 128 bits of SHA-256 over the salt and the address, an
 * IPv6 one by its /64 as throttles key it (one subscriber's block; walking
 * through it is one address). Anything without a colon is taken as it is:
 * parsing IPv4 would only cost time (a write may hash 20,000 addresses).
 */
function addressHash(salt: string, address: string): string {
  const bounded = address.slice(0, 100);
  return createHash("sha256")
    .update(salt)
    .update("\0address\0")
    .update(bounded.includes(":") ? addressKey(bounded) : bounded)
    .digest("base64url")
    .slice(0, 22);
}

/** Values of one `in (...)` list: one bound value each, well inside both backends' limits. */
const KEYS_PER_LOOKUP = 1_000;

/** Splits a list into statements' worth (rows of an insert by default). */
function* chunks<T>(items: T[], size: number = ROWS_PER_STATEMENT): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * The day's marked visitors, by hash, each with its address's hash. A hashed
 * identity's address is found in `pending.identities`, which holds every
 * marked one (it takes up to pendingMarks identities, and each marked visitor
 * takes at least two marks of the same bound); one not found is not counted.
 */
function visitorsOf(day: string, pending: PendingDay, salt: string): Map<string, Visitor> {
  const addressOf = new Map<string | RawIdentity, string>();
  for (const [address, byAgent] of pending.identities) for (const id of byAgent.values()) addressOf.set(id, address);
  const addressHashes = new Map<string, string>();
  const visitors = new Map<string, Visitor>();
  for (const [identity, marks] of pending.marks) {
    const address = typeof identity === "string" ? addressOf.get(identity) : identity.address;
    if (address === undefined || marks.size === 0) continue;
    const hash = typeof identity === "string" ? identity : visitorHash(salt, identity);
    let addressOfVisitor = addressHashes.get(address);
    if (addressOfVisitor === undefined) addressHashes.set(address, (addressOfVisitor = addressHash(salt, address)));
    let visitor = visitors.get(hash);
    if (!visitor) visitors.set(hash, (visitor = { hash, address: addressOfVisitor, rows: [] }));
    for (const [dimension, keys] of marks) for (const key of keys) visitor.rows.push({ day, hash, dimension, key });
  }
  return visitors;
}

/**
 * The visitors this write may count: each already counted today, and new
 * ones while their address is under `visitorsPerAddress` (first seen first);
 * answers them and every address's tally.
 */
async function admitVisitors(trx: Trx, day: string, visitors: Map<string, Visitor>) {
  const known = new Set<string>();
  for (const hashes of chunks([...visitors.keys()], KEYS_PER_LOOKUP)) {
    const rows = await trx
      .selectFrom("analytics_visitor_hashes")
      .select("hash")
      .where("day", "=", day)
      .where("dimension", "=", "all" satisfies MarkDimension)
      .where("key", "=", "")
      .where("hash", "in", hashes)
      .execute();
    for (const row of rows) known.add(row.hash);
  }
  const tallies = new Map<string, AddressTally>();
  for (const visitor of visitors.values()) {
    tallies.set(visitor.address, { visitors: 0, held: 0, admitted: 0, newVisitors: 0, newHeld: 0 });
  }
  for (const addresses of chunks([...tallies.keys()], KEYS_PER_LOOKUP)) {
    const rows = await trx
      .selectFrom("analytics_addresses")
      .select(["hash", "visitors", "held"])
      .where("day", "=", day)
      .where("hash", "in", addresses)
      .execute();
    for (const row of rows) Object.assign(tallies.get(row.hash)!, { visitors: row.visitors, held: row.held });
  }
  const admitted: Visitor[] = [];
  for (const visitor of visitors.values()) {
    const tally = tallies.get(visitor.address)!;
    if (known.has(visitor.hash)) admitted.push(visitor);
    else if (Number(tally.visitors) + tally.admitted < STORE_LIMITS.visitorsPerAddress) {
      tally.admitted++;
      admitted.push(visitor);
    }
  }
  return { admitted, tallies };
}

/**
 * Inserts the admitted visitors' marks, the "all" ones first, up to the
 * day's ceiling; answers the rows that were new and how many were written.
 */
async function insertMarks(trx: Trx, day: string, admitted: Visitor[]) {
  const rows = admitted.flatMap((visitor) => visitor.rows);
  const existing = await trx.selectFrom("analytics_days").select("marks").where("day", "=", day).executeTakeFirst();
  const room = Math.max(0, STORE_LIMITS.marksPerDay - Number(existing?.marks ?? 0));
  rows.sort((a, b) => (a.dimension === "all" ? 0 : 1) - (b.dimension === "all" ? 0 : 1));
  const kept = rows.slice(0, room);
  const inserted: Array<{ hash: string; dimension: string; key: string }> = [];
  for (const batch of chunks(kept)) {
    const added = await trx
      .insertInto("analytics_visitor_hashes")
      .values(batch)
      .onConflict((conflict) => conflict.columns(["day", "hash", "dimension", "key"]).doNothing())
      .returning(["hash", "dimension", "key"])
      .execute();
    inserted.push(...added);
  }
  return { inserted, written: kept.length };
}

/** The source a visitor came from today, by its hash: another site's before "direct"; "(unknown)" if none was counted. */
async function sourceOfVisitor(trx: Trx, day: string, hash: string): Promise<string> {
  const rows = await trx
    .selectFrom("analytics_visitor_hashes")
    .select("key")
    .where("day", "=", day)
    .where("hash", "=", hash)
    .where("dimension", "=", "source")
    .orderBy("key")
    .limit(20)
    .execute();
  const keys = rows.map((row) => row.key);
  return keys.find((key) => key !== DIRECT && key !== OTHER) ?? keys[0] ?? UNKNOWN;
}

/** Adds counts to the day's rows, in batches of upserts, in key order. */
async function upsertCounts(trx: Trx, day: string, counts: Map<string, Count>) {
  const rows = [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, count]) => {
      const tab = id.indexOf("\t");
      return { day, dimension: id.slice(0, tab), key: id.slice(tab + 1), hits: count.hits, visitors: count.visitors };
    });
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await trx
      .insertInto("analytics_counts")
      .values(rows.slice(i, i + ROWS_PER_STATEMENT))
      .onConflict((conflict) =>
        conflict.columns(["day", "dimension", "key"]).doUpdateSet({
          hits: capped("analytics_counts.hits"),
          visitors: capped("analytics_counts.visitors"),
        }),
      )
      .execute();
  }
}

/**
 * Keeps at most `keysPerDay` keys per dimension on `day` besides "(other)":
 * the least counted (then the last by name) are deleted and their counts
 * added to "(other)". Their visitors are summed, so a visitor seen under two
 * of them counts twice there.
 */
async function trimDay(trx: Trx | Db, day: string, keysPerDay: number = STORE_LIMITS.keysPerDay) {
  const sizes = await trx
    .selectFrom("analytics_counts")
    .select((eb) => ["dimension", eb.fn.countAll<string | number>().as("keys")])
    .where("day", "=", day)
    .where("key", "!=", OTHER)
    .groupBy("dimension")
    .execute();
  for (const { dimension, keys } of sizes) {
    const excess = Number(keys) - keysPerDay;
    if (excess <= 0) continue;
    const least = await trx
      .selectFrom("analytics_counts")
      .select(["key", "hits", "visitors"])
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .where("key", "!=", OTHER)
      .orderBy("hits", "asc")
      .orderBy("visitors", "asc")
      .orderBy("key", "desc")
      .limit(excess)
      .execute();
    let hits = 0;
    let visitors = 0;
    for (let i = 0; i < least.length; i += ROWS_PER_STATEMENT) {
      const batch = least.slice(i, i + ROWS_PER_STATEMENT);
      await trx
        .deleteFrom("analytics_counts")
        .where("day", "=", day)
        .where("dimension", "=", dimension)
        .where(
          "key",
          "in",
          batch.map((row) => row.key),
        )
        .execute();
      for (const row of batch) {
        hits += Number(row.hits);
        visitors += Number(row.visitors);
      }
    }
    const other = new Map<string, Count>([[`${dimension}\t${OTHER}`, { hits, visitors }]]);
    await upsertCounts(trx as Trx, day, other);
  }
}

/** The dimensions whose keys a visitor makes up (ADR 056): held until two addresses came from them. */
const HELD_DIMENSIONS: ReadonlySet<string> = new Set<Dimension>(["source", "campaign"]);

/** What a write learnt of one key: its new visitors and their addresses. */
interface KeyMarks {
  visitors: number;
  addresses: Set<string>;
}

/** A held key as stored. */
interface HeldRow {
  address: string;
  hits: number;
  visitors: number;
}

/**
 * Counts a held dimension's views and new visitors of this write: a key with
 * a row of its own adds to it; a held key seen now from another address gets
 * its row with every view held so far (taken back from "(other)", through
 * `released`); any other key adds to "(other)" and, when one address alone
 * came from it and has budget, is held.
 */
async function countHeldDimension(
  trx: Trx,
  day: string,
  dimension: Dimension,
  hits: Map<string, number>,
  marks: Map<string, KeyMarks>,
  tallies: Map<string, AddressTally>,
  counts: Map<string, Count>,
  released: Map<string, Count>,
) {
  const free: string[] = [];
  for (const key of new Set([...hits.keys(), ...marks.keys()])) {
    if (key === DIRECT || key === OTHER) add(counts, dimension, key, hits.get(key) ?? 0, marks.get(key)?.visitors ?? 0);
    else free.push(key);
  }
  const own = new Set<string>();
  const held = new Map<string, HeldRow>();
  for (const keys of chunks(free, KEYS_PER_LOOKUP)) {
    const rows = await trx
      .selectFrom("analytics_counts")
      .select("key")
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .where("key", "in", keys)
      .execute();
    for (const row of rows) own.add(row.key);
    const heldRows = await trx
      .selectFrom("analytics_held_keys")
      .select(["key", "address", "hits", "visitors"])
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .where("key", "in", keys)
      .execute();
    for (const row of heldRows) held.set(row.key, { ...row, hits: Number(row.hits), visitors: Number(row.visitors) });
  }
  let heldToday: number | undefined;
  const holds: Array<HeldRow & { day: string; dimension: string; key: string }> = [];
  const promoted: string[] = [];
  for (const key of free) {
    const views = hits.get(key) ?? 0;
    const keyMarks = marks.get(key);
    const visitors = keyMarks?.visitors ?? 0;
    const prior = held.get(key);
    if (own.has(key) || (!prior && keyMarks && keyMarks.addresses.size > 1)) {
      add(counts, dimension, key, views, visitors);
    } else if (prior && keyMarks && [...keyMarks.addresses].some((address) => address !== prior.address)) {
      add(counts, dimension, key, prior.hits + views, prior.visitors + visitors);
      add(released, dimension, OTHER, prior.hits, prior.visitors);
      promoted.push(key);
    } else {
      add(counts, dimension, OTHER, views, visitors);
      if (prior) {
        if (views > 0 || visitors > 0)
          holds.push({ day, dimension, key, address: prior.address, hits: views, visitors });
        continue;
      }
      const address = keyMarks?.addresses.values().next().value;
      const tally = address === undefined ? undefined : tallies.get(address);
      if (address === undefined || !tally || Number(tally.held) >= STORE_LIMITS.heldPerAddress) continue;
      heldToday ??= await countHeld(trx, day, dimension);
      if (heldToday >= STORE_LIMITS.heldPerDay) continue;
      heldToday++;
      tally.held++;
      tally.newHeld++;
      holds.push({ day, dimension, key, address, hits: views, visitors });
    }
  }
  for (const batch of chunks(holds)) {
    await trx
      .insertInto("analytics_held_keys")
      .values(batch)
      .onConflict((conflict) =>
        conflict.columns(["day", "dimension", "key"]).doUpdateSet({
          hits: capped("analytics_held_keys.hits"),
          visitors: capped("analytics_held_keys.visitors"),
        }),
      )
      .execute();
  }
  for (const keys of chunks(promoted, KEYS_PER_LOOKUP)) {
    await trx
      .deleteFrom("analytics_held_keys")
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .where("key", "in", keys)
      .execute();
  }
}

async function countHeld(trx: Trx, day: string, dimension: string): Promise<number> {
  const row = await trx
    .selectFrom("analytics_held_keys")
    .select((eb) => eb.fn.countAll<string | number>().as("keys"))
    .where("day", "=", day)
    .where("dimension", "=", dimension)
    .executeTakeFirst();
  return Number(row?.keys ?? 0);
}

/** Takes a promoted key's held views and visitors back out of "(other)", where they were counted meanwhile. */
async function release(trx: Trx, day: string, released: Map<string, Count>) {
  for (const [id, { hits, visitors }] of released) {
    const dimension = id.slice(0, id.indexOf("\t"));
    await trx
      .updateTable("analytics_counts")
      .set({
        hits: sql<number>`case when hits > ${hits} then hits - ${hits} else 0 end`,
        visitors: sql<number>`case when visitors > ${visitors} then visitors - ${visitors} else 0 end`,
      })
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .where("key", "=", OTHER)
      .execute();
    await trx
      .deleteFrom("analytics_counts")
      .where("day", "=", day)
      .where("dimension", "=", dimension)
      .where("key", "=", OTHER)
      .where("hits", "=", 0)
      .where("visitors", "=", 0)
      .execute();
  }
}

/** Adds this write's new visitors to their addresses' tallies. */
async function saveTallies(trx: Trx, day: string, tallies: Map<string, AddressTally>) {
  const rows = [...tallies]
    .filter(([, tally]) => tally.newVisitors > 0 || tally.newHeld > 0)
    .map(([hash, tally]) => ({ day, hash, visitors: tally.newVisitors, held: tally.newHeld }));
  for (const batch of chunks(rows)) {
    await trx
      .insertInto("analytics_addresses")
      .values(batch)
      .onConflict((conflict) =>
        conflict.columns(["day", "hash"]).doUpdateSet({
          visitors: capped("analytics_addresses.visitors"),
          held: capped("analytics_addresses.held"),
        }),
      )
      .execute();
  }
}

/** Adds one day's pending counts to its rows. */
async function writeDay(trx: Trx, day: string, pending: PendingDay, salt: string) {
  const hashOf = (identity: string | RawIdentity) =>
    typeof identity === "string" ? identity : visitorHash(salt, identity);
  const visitors = visitorsOf(day, pending, salt);
  const { admitted, tallies } = await admitVisitors(trx, day, visitors);
  const { inserted, written } = await insertMarks(trx, day, admitted);
  let newVisitors = 0;
  const marks = new Map<string, Map<string, KeyMarks>>();
  for (const row of inserted) {
    const address = visitors.get(row.hash)!.address;
    if (row.dimension === "all") {
      newVisitors++;
      tallies.get(address)!.newVisitors++;
      continue;
    }
    let byKey = marks.get(row.dimension);
    if (!byKey) marks.set(row.dimension, (byKey = new Map<string, KeyMarks>()));
    let keyMarks = byKey.get(row.key);
    if (!keyMarks) byKey.set(row.key, (keyMarks = { visitors: 0, addresses: new Set() }));
    keyMarks.visitors++;
    keyMarks.addresses.add(address);
  }
  const counts = new Map<string, Count>();
  const released = new Map<string, Count>();
  for (const dimension of new Set<string>([...pending.hits.keys(), ...marks.keys()])) {
    const hits = pending.hits.get(dimension as Dimension) ?? new Map<string, number>();
    const keyMarks = marks.get(dimension) ?? new Map<string, KeyMarks>();
    if (HELD_DIMENSIONS.has(dimension)) {
      await countHeldDimension(trx, day, dimension as Dimension, hits, keyMarks, tallies, counts, released);
      continue;
    }
    for (const [key, views] of hits) add(counts, dimension as Dimension, key, views, 0);
    for (const [key, { visitors: count }] of keyMarks) add(counts, dimension as Dimension, key, 0, count);
  }
  await upsertCounts(trx, day, counts);
  await release(trx, day, released);
  const conversions = new Map<string, Count>();
  for (const conversion of pending.conversions) {
    add(conversions, "conversion_page", conversion.page, 1, 0);
    add(conversions, "conversion_source", await sourceOfVisitor(trx, day, hashOf(conversion.identity)), 1, 0);
  }
  await upsertCounts(trx, day, conversions);
  await saveTallies(trx, day, tallies);
  await trx
    .insertInto("analytics_days")
    .values({
      day,
      views: pending.views,
      visitors: newVisitors,
      conversions: pending.conversions.length,
      marks: written,
    })
    .onConflict((conflict) =>
      conflict.column("day").doUpdateSet({
        views: capped("analytics_days.views"),
        visitors: capped("analytics_days.visitors"),
        conversions: capped("analytics_days.conversions"),
        marks: capped("analytics_days.marks"),
      }),
    )
    .execute();
  await trimDay(trx, day);
}

/**
 * Writes what `counter` counted since the last write, one transaction per
 * day (as a rule one, two around midnight). Reads today's salt first if this
 * process does not have it yet, so that later views are hashed as they come.
 */
export async function writeCounts(db: Db, counter: AnalyticsCounter = analyticsCounter, now = new Date()) {
  const today = utcDay(now);
  if (counter.saltOf(today) === undefined) counter.setSalt(today, await todaysSalt(db, today));
  const days = counter.take();
  try {
    for (const [day, pending] of days) {
      if (pending.views === 0 && pending.conversions.length === 0) continue;
      await db.transaction().execute(async (trx) => {
        if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${WRITE_LOCK})`.execute(trx);
        // A day already over whose salt is gone: its last views get a salt of their own, never stored.
        const salt = counter.saltOf(day) ?? (await earlierSalt(trx, day)) ?? randomBytes(32).toString("base64url");
        await writeDay(trx, day, pending, salt);
      });
    }
  } finally {
    counter.written();
  }
}

/** The day `days` days before `day` (YYYY-MM-DD). */
export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Deletes the salts, visitor hashes, address tallies and held keys of days
 * before today, and the daily
 * rows older than `retentionDays`.
 */
export async function pruneAnalytics(db: Db, retentionDays: number, now = new Date()) {
  const today = utcDay(now);
  await db.deleteFrom("analytics_salts").where("day", "<", today).execute();
  await db.deleteFrom("analytics_visitor_hashes").where("day", "<", today).execute();
  await db.deleteFrom("analytics_addresses").where("day", "<", today).execute();
  // A key still held at the day's end stays counted under "(other)", where its views already are.
  await db.deleteFrom("analytics_held_keys").where("day", "<", today).execute();
  const oldest = daysBefore(today, retentionDays);
  await db.deleteFrom("analytics_counts").where("day", "<", oldest).execute();
  await db.deleteFrom("analytics_days").where("day", "<", oldest).execute();
}

/**
 * Registers the analytics' batch writer and pruning with the jobs domain
 * (ADR 067): a flusher writes the counter every FLUSH_MS and at shutdown (one
 * write at a time; a failed write is logged and its counts lost, never
 * retried into a growing backlog); a daily schedule, just after midnight UTC,
 * deletes the day that ended's salt and hashes and rows past the retention.
 */
export function scheduleAnalytics(db: () => Db, { retentionDays }: { retentionDays: number }): void {
  defineFlusher("analytics", FLUSH_MS, () => writeCounts(db()));
  const prune = defineJob<Record<string, never>>(
    "analytics.prune",
    async (_payload, ctx) => {
      await pruneAnalytics(ctx.db, retentionDays);
    },
    { maxAttempts: 5, retryDelaysMs: [60_000, 5 * 60_000] },
  );
  defineSchedule("analytics.prune", 86_400_000, prune);
}
