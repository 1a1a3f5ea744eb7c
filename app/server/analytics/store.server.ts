import { randomBytes } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Database } from "../db/schema.server";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import {
  analyticsCounter,
  type AnalyticsCounter,
  type Dimension,
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
 */

export const STORE_LIMITS = {
  keysPerDay: 200,
  marksPerDay: 500_000,
} as const;

/** How often the counts are written: a view shows in the numbers within this and the write's own time. */
export const FLUSH_MS = 3_000;

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

/**
 * Inserts the day's visitor marks, the "all" ones first, up to the day's
 * ceiling; answers how many were new, by "dimension\tkey" ("all\t" for the
 * day's visitors).
 */
async function insertMarks(
  trx: Trx,
  day: string,
  pending: PendingDay,
  hashOf: (identity: string | RawIdentity) => string,
) {
  const rows: Array<{ day: string; hash: string; dimension: string; key: string }> = [];
  for (const [identity, marks] of pending.marks) {
    const hash = hashOf(identity);
    for (const [dimension, keys] of marks) for (const key of keys) rows.push({ day, hash, dimension, key });
  }
  const existing = await trx.selectFrom("analytics_days").select("marks").where("day", "=", day).executeTakeFirst();
  const room = Math.max(0, STORE_LIMITS.marksPerDay - Number(existing?.marks ?? 0));
  rows.sort((a, b) => (a.dimension === "all" ? 0 : 1) - (b.dimension === "all" ? 0 : 1));
  const kept = rows.slice(0, room);
  const inserted = new Map<string, number>();
  for (let i = 0; i < kept.length; i += ROWS_PER_STATEMENT) {
    const added = await trx
      .insertInto("analytics_visitor_hashes")
      .values(kept.slice(i, i + ROWS_PER_STATEMENT))
      .onConflict((conflict) => conflict.columns(["day", "hash", "dimension", "key"]).doNothing())
      .returning(["dimension", "key"])
      .execute();
    for (const row of added) {
      const id = `${row.dimension}\t${row.key}`;
      inserted.set(id, (inserted.get(id) ?? 0) + 1);
    }
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
export async function trimDay(trx: Trx | Db, day: string, keysPerDay: number = STORE_LIMITS.keysPerDay) {
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

/** Adds one day's pending counts to its rows. */
async function writeDay(trx: Trx, day: string, pending: PendingDay, salt: string) {
  const hashOf = (identity: string | RawIdentity) =>
    typeof identity === "string" ? identity : visitorHash(salt, identity);
  const { inserted, written } = await insertMarks(trx, day, pending, hashOf);
  const counts = new Map<string, Count>();
  for (const [dimension, keys] of pending.hits) for (const [key, hits] of keys) add(counts, dimension, key, hits, 0);
  let visitors = 0;
  for (const [id, count] of inserted) {
    const tab = id.indexOf("\t");
    const dimension = id.slice(0, tab);
    if (dimension === "all") visitors += count;
    else add(counts, dimension as Dimension, id.slice(tab + 1), 0, count);
  }
  for (const conversion of pending.conversions) {
    add(counts, "conversion_page", conversion.page, 1, 0);
    add(counts, "conversion_source", await sourceOfVisitor(trx, day, hashOf(conversion.identity)), 1, 0);
  }
  await upsertCounts(trx, day, counts);
  await trx
    .insertInto("analytics_days")
    .values({ day, views: pending.views, visitors, conversions: pending.conversions.length, marks: written })
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
  for (const [day, pending] of days) {
    if (pending.views === 0 && pending.conversions.length === 0) continue;
    await db.transaction().execute(async (trx) => {
      if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${WRITE_LOCK})`.execute(trx);
      // A day already over whose salt is gone: its last views get a salt of their own, never stored.
      const salt = counter.saltOf(day) ?? (await earlierSalt(trx, day)) ?? randomBytes(32).toString("base64url");
      await writeDay(trx, day, pending, salt);
    });
  }
}

/** The day `days` days before `day` (YYYY-MM-DD). */
export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Deletes the salts and visitor hashes of days before today, and the daily
 * rows older than `retentionDays`.
 */
export async function pruneAnalytics(db: Db, retentionDays: number, now = new Date()) {
  const today = utcDay(now);
  await db.deleteFrom("analytics_salts").where("day", "<", today).execute();
  await db.deleteFrom("analytics_visitor_hashes").where("day", "<", today).execute();
  const oldest = daysBefore(today, retentionDays);
  await db.deleteFrom("analytics_counts").where("day", "<", oldest).execute();
  await db.deleteFrom("analytics_days").where("day", "<", oldest).execute();
}

/**
 * Writes the counter every FLUSH_MS (one write at a time; a failed write is
 * logged and its counts lost, never retried into a growing backlog), prunes
 * at start and on the first write of each new day. Answers the function that
 * stops it after a last write, for shutdown.
 */
export async function startAnalytics(
  db: () => Db,
  logger: { error(fields: object, message: string): void },
  { retentionDays }: { retentionDays: number },
): Promise<() => Promise<void>> {
  let prunedOn = "";
  const prune = async () => {
    const today = utcDay(new Date());
    if (prunedOn === today) return;
    await pruneAnalytics(db(), retentionDays);
    prunedOn = today;
  };
  await prune().catch((error: unknown) => logger.error({ err: error }, "the analytics could not be pruned"));
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    writing = writing
      .then(() => writeCounts(db()))
      .then(prune)
      .catch((error: unknown) => logger.error({ err: error }, "the analytics could not be written"));
    return writing;
  };
  const timer = setInterval(() => void write(), FLUSH_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    return write();
  };
}
