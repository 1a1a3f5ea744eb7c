import type { IncomingHttpHeaders } from "node:http";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anotherConnection, freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import type { Connection, Db } from "../db/db.server";
import { AnalyticsCounter } from "./counter.server";
import { analyticsReport, parseRange } from "./report.server";
import { pruneAnalytics, STORE_LIMITS, writeCounts } from "./store.server";
import { DIRECT, OTHER } from "./views.server";

/**
 * The analytics' counts as written to the backend under test (ADR 056): two
 * counters on two connections stand for two processes on one database.
 * Visitors are counted once across them; a flood of unique pages, sources
 * and campaigns leaves at most STORE_LIMITS.keysPerDay keys a day (the rest
 * summed in "(other)", no view lost); no address or User-Agent is stored; the
 * salt and hashes go when their day is over, daily rows at the retention.
 */

let database: FreshDatabase;
let second: Connection;
let db: Db;
const NOW = new Date("2026-11-27T12:00:00Z");
const TODAY = "2026-11-27";
const SITE = "www.example.com";
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

beforeAll(async () => {
  database = await freshDatabase();
  second = anotherConnection(database);
  db = database.connection.db;
});
afterAll(async () => {
  await second?.db.destroy();
  await database?.cleanup();
});

const headers = (extra: IncomingHttpHeaders = {}): IncomingHttpHeaders => ({
  accept: "text/html",
  "user-agent": UA,
  host: SITE,
  ...extra,
});

async function emptyTables() {
  for (const table of ["analytics_days", "analytics_counts", "analytics_salts", "analytics_visitor_hashes"] as const) {
    await db.deleteFrom(table).execute();
  }
}

const report = async () => analyticsReport(db, { from: TODAY, to: TODAY });

describe("counting and writing", () => {
  it("sums two processes: each view once, each visitor once a day however many processes saw them", async () => {
    await emptyTables();
    const a = new AnalyticsCounter();
    const b = new AnalyticsCounter();
    // One visitor's views through both processes, before and after either knows the salt.
    a.recordView("/blog?utm_source=newsletter&utm_campaign=autumn", headers(), "203.0.113.1", SITE, NOW);
    b.recordView("/blog/first-post", headers({ referer: `https://${SITE}/blog` }), "203.0.113.1", SITE, NOW);
    await writeCounts(db, a, NOW);
    await writeCounts(second.db, b, NOW);
    a.recordView("/about", headers({ referer: "https://news.example.org/item?id=1" }), "203.0.113.1", SITE, NOW);
    b.recordView("/about", headers({ referer: "https://news.example.org/x" }), "203.0.113.2", SITE, NOW);
    b.recordView("/", headers(), "203.0.113.1", SITE, NOW);
    // One after the other: two SQLite connections in one process would wait on each other's lock
    // without letting the other finish (two processes, as in tests/integration/analytics.test.ts, do not).
    await writeCounts(db, a, NOW);
    await writeCounts(second.db, b, NOW);

    const numbers = await report();
    expect(numbers.totals).toMatchObject({ views: 5, visitors: 2 });
    expect(numbers.days).toEqual([{ date: TODAY, views: 5, visitors: 2 }]);
    expect(numbers.pages).toEqual([
      { path: "/about", views: 2 },
      { path: "/", views: 1 },
      { path: "/blog", views: 1 },
      { path: "/blog/first-post", views: 1 },
    ]);
    // The move within the site has no source; direct, newsletter and the news site once per visitor.
    expect(numbers.referrers).toEqual([
      { source: "news.example.org", visitors: 2, views: 2 },
      { source: DIRECT, visitors: 1, views: 1 },
      { source: "newsletter", visitors: 1, views: 1 },
    ]);
    expect(numbers.campaigns).toEqual([{ campaign: "autumn", visitors: 1, views: 1 }]);
    expect(numbers.devices).toEqual([{ device: "desktop", visitors: 2, views: 5 }]);
  });

  it("ties a contact message to the page it was sent from and its sender's source", async () => {
    const a = new AnalyticsCounter();
    a.recordConversion(
      { address: "203.0.113.2", userAgent: UA, referer: `https://${SITE}/about`, host: SITE },
      SITE,
      NOW,
    );
    await writeCounts(db, a, NOW);
    const numbers = await report();
    expect(numbers.totals.conversions).toBe(1);
    expect(numbers.conversions.pages).toEqual([{ path: "/about", messages: 1 }]);
    expect(numbers.conversions.sources).toEqual([{ source: "news.example.org", messages: 1 }]);
  });

  it("stores no address and no User-Agent, and forgets the salt and the hashes once the day is over", async () => {
    for (const table of ["analytics_days", "analytics_counts", "analytics_salts", "analytics_visitor_hashes"]) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
      const text = JSON.stringify(rows.rows);
      expect(text).not.toContain("203.0.113");
      expect(text).not.toContain("Chrome/131");
    }
    const salts = await db.selectFrom("analytics_salts").selectAll().execute();
    expect(salts.map((row) => row.day)).toEqual([TODAY]);
    await pruneAnalytics(db, 730, new Date("2026-11-28T00:00:01Z"));
    expect(await db.selectFrom("analytics_salts").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("analytics_visitor_hashes").selectAll().execute()).toEqual([]);
    // The day's numbers stay until the retention has passed.
    expect((await report()).totals.views).toBe(5);
    // 730 days after 2026-11-27 (2028 is a leap year) is 2028-11-26.
    await pruneAnalytics(db, 730, new Date("2028-11-26T23:59:59Z"));
    expect((await report()).totals.views).toBe(5);
    await pruneAnalytics(db, 730, new Date("2028-11-27T00:00:00Z"));
    expect((await report()).totals.views).toBe(0);
  });

  it(
    "keeps a flood of 10,000 unique pages, sources and campaigns to a bounded number of rows, losing no view",
    { timeout: 60_000 },
    async () => {
      await emptyTables();
      const flood = 10_000;
      // Four writes of 2,500 views each, as a flood spread over a few seconds.
      for (let round = 0; round < 4; round++) {
        const counter = new AnalyticsCounter();
        for (let i = 0; i < flood / 4; i++) {
          const n = round * (flood / 4) + i;
          const url = `/flood-${n}?utm_campaign=c${n}`;
          counter.recordView(
            url,
            headers({ referer: `https://s${n}.example.net/` }),
            `198.51.${n >> 8}.${n & 255}`,
            SITE,
            NOW,
          );
        }
        await writeCounts(db, counter, NOW);
      }
      const perDimension = await db
        .selectFrom("analytics_counts")
        .select((eb) => ["dimension", eb.fn.countAll<string | number>().as("rows")])
        .where("day", "=", TODAY)
        .groupBy("dimension")
        .execute();
      for (const { dimension, rows } of perDimension) {
        expect(Number(rows), dimension).toBeLessThanOrEqual(STORE_LIMITS.keysPerDay + 1);
      }
      const numbers = await report();
      expect(numbers.totals).toMatchObject({ views: flood, visitors: flood });
      const pages = await db
        .selectFrom("analytics_counts")
        .select((eb) => eb.fn.sum<string | number>("hits").as("views"))
        .where("dimension", "=", "page")
        .executeTakeFirstOrThrow();
      expect(Number(pages.views)).toBe(flood);
      expect(numbers.pages.length).toBeLessThanOrEqual(50);
      expect(numbers.pages[0]!.path).toBe(OTHER);
    },
  );
});

describe("the range of a report", () => {
  const range = (query: string) => parseRange(new URLSearchParams(query), NOW);

  it("takes two real UTC days, from not after to, at most 366 days; without both, the last 30", () => {
    expect(range("from=2026-01-01&to=2026-12-31")).toEqual({
      ok: true,
      value: { from: "2026-01-01", to: "2026-12-31" },
    });
    expect(range("from=2024-01-01&to=2024-12-31").ok).toBe(true);
    expect(range("")).toEqual({ ok: true, value: { from: "2026-10-29", to: TODAY } });
    for (const bad of [
      "from=2026-01-01",
      "to=2026-01-01",
      "from=2026-02-30&to=2026-03-01",
      "from=2026-1-1&to=2026-01-02",
      "from=2026-01-02&to=2026-01-01",
      "from=2025-01-01&to=2026-01-02",
      "from=2026-01-01T00:00&to=2026-01-02",
      `from=${"9".repeat(5000)}&to=2026-01-01`,
    ]) {
      expect(range(bad).ok, bad).toBe(false);
    }
  });
});
