import type { Connection, Db } from "../db/db.server";
import { inSnapshot } from "../db/snapshot.server";
import { utcDay } from "./counter.server";
import { daysBefore } from "./store.server";

/**
 * What the owner reads (ADR 056): a range of UTC days, checked, and the
 * numbers over it: totals, one entry per day, and the top pages, sources,
 * campaigns, devices and the contact messages with their pages and sources.
 * Every list is bounded: a range is at most MAX_RANGE_DAYS days, each top
 * list at most TOP_ROWS entries.
 */

const MAX_RANGE_DAYS = 366;
const TOP_ROWS = 50;
/** The range when none is asked for: the last 30 days, today included. */
const DEFAULT_RANGE_DAYS = 30;

export interface Range {
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD that names a real day (not 2026-02-30). */
function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** Days from `from` to `to`, both included. */
function daysIn({ from, to }: Range): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * `from` and `to` of a query: both YYYY-MM-DD, `from` not after `to`, at
 * most MAX_RANGE_DAYS days. Without either, the last DEFAULT_RANGE_DAYS days;
 * without one, the other's day alone is not guessed: 400.
 */
export function parseRange(
  params: URLSearchParams,
  now = new Date(),
): { ok: true; value: Range } | { ok: false; message: string } {
  const from = params.get("from");
  const to = params.get("to");
  if (from === null && to === null) {
    const today = utcDay(now);
    return { ok: true, value: { from: daysBefore(today, DEFAULT_RANGE_DAYS - 1), to: today } };
  }
  if (from === null || to === null) return { ok: false, message: "from and to are both required (YYYY-MM-DD)" };
  if (from.length > 10 || !isDay(from)) return { ok: false, message: "from must be a day, YYYY-MM-DD" };
  if (to.length > 10 || !isDay(to)) return { ok: false, message: "to must be a day, YYYY-MM-DD" };
  if (from > to) return { ok: false, message: "from must not be after to" };
  if (daysIn({ from, to }) > MAX_RANGE_DAYS)
    return { ok: false, message: `The range is at most ${MAX_RANGE_DAYS} days` };
  return { ok: true, value: { from, to } };
}

export interface AnalyticsReport {
  range: Range;
  totals: { views: number; visitors: number; conversions: number };
  days: Array<{ date: string; views: number; visitors: number }>;
  pages: Array<{ path: string; views: number }>;
  referrers: Array<{ source: string; visitors: number; views: number }>;
  campaigns: Array<{ campaign: string; visitors: number; views: number }>;
  devices: Array<{ device: string; visitors: number; views: number }>;
  conversions: {
    days: Array<{ date: string; messages: number }>;
    pages: Array<{ path: string; messages: number }>;
    sources: Array<{ source: string; messages: number }>;
  };
}

/** A dimension's keys over the range, summed, most `by` first (then by name), at most TOP_ROWS. */
async function top(db: Db, { from, to }: Range, dimension: string, by: "hits" | "visitors") {
  const rows = await db
    .selectFrom("analytics_counts")
    .select((eb) => [
      "key",
      eb.fn.sum<string | number>("hits").as("hits"),
      eb.fn.sum<string | number>("visitors").as("visitors"),
    ])
    .where("dimension", "=", dimension)
    .where("day", ">=", from)
    .where("day", "<=", to)
    .groupBy("key")
    .orderBy(by === "hits" ? "hits" : "visitors", "desc")
    .orderBy(by === "hits" ? "visitors" : "hits", "desc")
    .orderBy("key", "asc")
    .limit(TOP_ROWS)
    .execute();
  return rows.map((row) => ({ key: row.key, hits: Number(row.hits), visitors: Number(row.visitors) }));
}

/**
 * The numbers over `range`: every day in it (a day with nothing counted shows
 * zeros), oldest first. Read on one snapshot: another process's write that
 * commits meanwhile shows in every number or in none, so the totals always
 * agree with the lists.
 */
export async function analyticsReport(connection: Connection, range: Range): Promise<AnalyticsReport> {
  const [dayRows, pages, sources, campaigns, devices, conversionPages, conversionSources] = await inSnapshot(
    connection,
    (db) => readReport(db, range),
  );
  const byDay = new Map(dayRows.map((row) => [row.day, row]));
  const days: AnalyticsReport["days"] = [];
  const messages: AnalyticsReport["conversions"]["days"] = [];
  const totals = { views: 0, visitors: 0, conversions: 0 };
  const count = daysIn(range);
  for (let i = count - 1; i >= 0; i--) {
    const date = daysBefore(range.to, i);
    const row = byDay.get(date);
    const views = Number(row?.views ?? 0);
    const visitors = Number(row?.visitors ?? 0);
    const conversions = Number(row?.conversions ?? 0);
    days.push({ date, views, visitors });
    messages.push({ date, messages: conversions });
    totals.views += views;
    totals.visitors += visitors;
    totals.conversions += conversions;
  }
  return {
    range,
    totals,
    days,
    pages: pages.map((row) => ({ path: row.key, views: row.hits })),
    referrers: sources.map((row) => ({ source: row.key, visitors: row.visitors, views: row.hits })),
    campaigns: campaigns.map((row) => ({ campaign: row.key, visitors: row.visitors, views: row.hits })),
    devices: devices.map((row) => ({ device: row.key, visitors: row.visitors, views: row.hits })),
    conversions: {
      days: messages,
      pages: conversionPages.map((row) => ({ path: row.key, messages: row.hits })),
      sources: conversionSources.map((row) => ({ source: row.key, messages: row.hits })),
    },
  };
}

const DIMENSIONS = new Set(["page", "source", "campaign", "device", "conversion_page", "conversion_source"]);
const isCount = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 2e9;

/**
 * Whether a row of `analytics_days` or `analytics_counts` from a backup is
 * one the site could have written: a real day, a known dimension, a key of at
 * most 300 characters without control characters, whole counts. A restore
 * trusts nothing it did not write (ADR 047).
 */
export function isAnalyticsRow(table: "analytics_days" | "analytics_counts", row: Record<string, unknown>): boolean {
  if (typeof row.day !== "string" || !isDay(row.day)) return false;
  if (table === "analytics_days") {
    return isCount(row.views) && isCount(row.visitors) && isCount(row.conversions) && isCount(row.marks);
  }
  const key = row.key;
  if (typeof row.dimension !== "string" || !DIMENSIONS.has(row.dimension)) return false;
  if (typeof key !== "string" || key.length > 300) return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) < 0x20 || key.charCodeAt(i) === 0x7f) return false;
  return isCount(row.hits) && isCount(row.visitors);
}

/** The Analytics screen's period choices (days back from today, today included). */
const PRESET_DAYS = [7, 30, 90] as const;

/**
 * The screen's period from its query: `days` (7, 30 or 90), or `from` and
 * `to` (as the API takes them), else the last 30 days; a bad custom period
 * shows the last 30 days with the reason.
 */
export function parseScreenRange(
  params: URLSearchParams,
  now = new Date(),
): { range: Range; preset: number | null; error: string | null } {
  const today = utcDay(now);
  const last = (days: number) => ({ from: daysBefore(today, days - 1), to: today });
  const days = Number(params.get("days"));
  if (PRESET_DAYS.includes(days as (typeof PRESET_DAYS)[number]))
    return { range: last(days), preset: days, error: null };
  if (params.get("from") === null && params.get("to") === null) {
    return { range: last(DEFAULT_RANGE_DAYS), preset: DEFAULT_RANGE_DAYS, error: null };
  }
  const parsed = parseRange(params, now);
  if (parsed.ok) return { range: parsed.value, preset: null, error: null };
  return { range: last(DEFAULT_RANGE_DAYS), preset: DEFAULT_RANGE_DAYS, error: parsed.message };
}

/** The report's reads, side by side on `db` (one snapshot's). */
function readReport(db: Db, range: Range) {
  return Promise.all([
    db
      .selectFrom("analytics_days")
      .select(["day", "views", "visitors", "conversions"])
      .where("day", ">=", range.from)
      .where("day", "<=", range.to)
      .execute(),
    top(db, range, "page", "hits"),
    top(db, range, "source", "visitors"),
    top(db, range, "campaign", "visitors"),
    top(db, range, "device", "visitors"),
    top(db, range, "conversion_page", "hits"),
    top(db, range, "conversion_source", "hits"),
  ]);
}
