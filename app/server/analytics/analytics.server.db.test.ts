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

const TABLES = [
  "analytics_days",
  "analytics_counts",
  "analytics_salts",
  "analytics_visitor_hashes",
  "analytics_addresses",
  "analytics_held_keys",
] as const;

async function emptyTables() {
  for (const table of TABLES) await db.deleteFrom(table).execute();
}

const report = async () => analyticsReport(database.connection, { from: TODAY, to: TODAY });

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
    // without letting the other finish (two processes, as in tests/integration/analytics.db.test.ts, do not).
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
    // The move within the site has no source; direct and the news site once per visitor. The newsletter
    // and its campaign came from one address only: counted, under "(other)".
    expect(numbers.referrers).toEqual([
      { source: "news.example.org", visitors: 2, views: 2 },
      { source: OTHER, visitors: 1, views: 1 },
      { source: DIRECT, visitors: 1, views: 1 },
    ]);
    expect(numbers.campaigns).toEqual([{ campaign: OTHER, visitors: 1, views: 1 }]);
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
    for (const table of TABLES) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
      const text = JSON.stringify(rows.rows);
      expect(text).not.toContain("203.0.113");
      expect(text).not.toContain("Chrome/131");
    }
    // The addresses' tallies and the held newsletter are there, under hashes only.
    expect((await db.selectFrom("analytics_addresses").selectAll().execute()).length).toBe(2);
    expect((await db.selectFrom("analytics_held_keys").select("key").execute()).map((row) => row.key).sort()).toEqual([
      "autumn",
      "newsletter",
    ]);
    const salts = await db.selectFrom("analytics_salts").selectAll().execute();
    expect(salts.map((row) => row.day)).toEqual([TODAY]);
    await pruneAnalytics(db, 730, new Date("2026-11-28T00:00:01Z"));
    expect(await db.selectFrom("analytics_salts").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("analytics_visitor_hashes").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("analytics_addresses").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("analytics_held_keys").selectAll().execute()).toEqual([]);
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

describe("one client faking the numbers", () => {
  const browser = (n: number) => `${UA} Extra/${n}`;
  /** Writes counter a, then counter b: two processes on one database, one after the other (see above). */
  const writeBoth = async (a: AnalyticsCounter, b: AnalyticsCounter) => {
    await writeCounts(db, a, NOW);
    await writeCounts(second.db, b, NOW);
  };

  it("counts 300 User-Agents from one address, over two processes, as at most the cap of visitors", async () => {
    await emptyTables();
    const cap = STORE_LIMITS.visitorsPerAddress;
    // Three rounds of 100 requests, each round split over two processes: a new User-Agent every request.
    for (let round = 0; round < 3; round++) {
      const a = new AnalyticsCounter();
      const b = new AnalyticsCounter();
      for (let i = 0; i < 100; i++) {
        const n = round * 100 + i;
        (n % 2 === 0 ? a : b).recordView("/", headers({ "user-agent": browser(n) }), "198.51.100.7", SITE, NOW);
      }
      await writeBoth(a, b);
    }
    // An IPv6 client walking through its own /64 is one address.
    const c = new AnalyticsCounter();
    for (let n = 0; n < 300; n++) c.recordView("/about", headers(), `2001:db8:1:2::${n.toString(16)}`, SITE, NOW);
    await writeCounts(db, c, NOW);
    const numbers = await report();
    expect(numbers.totals).toMatchObject({ views: 600, visitors: 2 * cap });
    expect(numbers.devices).toEqual([{ device: "desktop", visitors: 2 * cap, views: 600 }]);
    const tallies = await db.selectFrom("analytics_addresses").select("visitors").execute();
    expect(tallies.map((row) => Number(row.visitors))).toEqual([cap, cap]);
  });

  it("counts several browsers behind one address each, and each of them again past the cap", async () => {
    await emptyTables();
    const a = new AnalyticsCounter();
    const b = new AnalyticsCounter();
    // A family: five browsers behind one address, on two processes, twice each.
    for (let n = 0; n < 10; n++) {
      (n % 2 === 0 ? a : b).recordView("/", headers({ "user-agent": browser(n % 5) }), "192.0.2.50", SITE, NOW);
    }
    await writeBoth(a, b);
    expect((await report()).totals).toMatchObject({ views: 10, visitors: 5 });
    // The address then reaches its cap; the first browser, already a visitor, still counts under a new campaign.
    const c = new AnalyticsCounter();
    for (let n = 5; n < 40; n++) c.recordView("/", headers({ "user-agent": browser(n) }), "192.0.2.50", SITE, NOW);
    c.recordView("/?utm_campaign=spring", headers({ "user-agent": browser(0) }), "192.0.2.50", SITE, NOW);
    await writeCounts(db, c, NOW);
    const numbers = await report();
    expect(numbers.totals).toMatchObject({ views: 46, visitors: STORE_LIMITS.visitorsPerAddress });
    expect(numbers.campaigns).toEqual([{ campaign: OTHER, visitors: 1, views: 1 }]);
  });

  it(
    "does not let 200 made-up sources, each from one visitor, push out a real source seen by two",
    { timeout: 60_000 },
    async () => {
      await emptyTables();
      const a = new AnalyticsCounter();
      const b = new AnalyticsCounter();
      // 200 made-up sources, each from a visitor of its own address, with five views each;
      // and 200 more from one address with a User-Agent each, that one client's own.
      for (let n = 0; n < 200; n++) {
        for (let view = 0; view < 5; view++) {
          a.recordView(`/?utm_source=fake-${n}`, headers(), `198.51.100.${n}`, SITE, NOW);
          b.recordView(`/?utm_source=made-up-${n}`, headers({ "user-agent": browser(n) }), "203.0.113.99", SITE, NOW);
        }
      }
      // The real source: one view from each of two visitors, on the two processes.
      a.recordView("/?utm_source=newsletter", headers(), "203.0.113.1", SITE, NOW);
      b.recordView("/?utm_source=newsletter", headers(), "203.0.113.2", SITE, NOW);
      await writeBoth(a, b);
      const numbers = await report();
      expect(numbers.totals.views).toBe(2002);
      expect(numbers.referrers).toEqual([
        { source: OTHER, visitors: 200 + STORE_LIMITS.visitorsPerAddress, views: 2000 },
        { source: "newsletter", visitors: 2, views: 2 },
      ]);
      // One client's address held at most its budget of keys.
      const held = await db
        .selectFrom("analytics_held_keys")
        .select((eb) => ["address", eb.fn.countAll<string | number>().as("keys")])
        .groupBy("address")
        .execute();
      expect(Math.max(...held.map((row) => Number(row.keys)))).toBeLessThanOrEqual(STORE_LIMITS.heldPerAddress);
    },
  );

  it("moves every view of a source's first visitor to its row when a second address comes", async () => {
    await emptyTables();
    const a = new AnalyticsCounter();
    for (let i = 0; i < 3; i++) {
      a.recordView("/?utm_source=partner&utm_campaign=spring", headers(), "203.0.113.1", SITE, NOW);
    }
    await writeCounts(db, a, NOW);
    // Another browser behind the same address is not a second address.
    const b = new AnalyticsCounter();
    b.recordView(
      "/?utm_source=partner&utm_campaign=spring",
      headers({ "user-agent": browser(1) }),
      "203.0.113.1",
      SITE,
      NOW,
    );
    await writeCounts(second.db, b, NOW);
    let numbers = await report();
    expect(numbers.referrers).toEqual([{ source: OTHER, visitors: 2, views: 4 }]);
    expect(numbers.campaigns).toEqual([{ campaign: OTHER, visitors: 2, views: 4 }]);
    // A visitor from another address, on the other process: the source and campaign get their rows, every view.
    const c = new AnalyticsCounter();
    c.recordView("/about?utm_source=partner&utm_campaign=spring", headers(), "203.0.113.2", SITE, NOW);
    c.recordView("/?utm_source=made-up", headers(), "203.0.113.2", SITE, NOW);
    await writeCounts(db, c, NOW);
    numbers = await report();
    expect(numbers.totals).toMatchObject({ views: 6, visitors: 3 });
    expect(numbers.referrers).toEqual([
      { source: "partner", visitors: 3, views: 5 },
      { source: OTHER, visitors: 1, views: 1 },
    ]);
    expect(numbers.campaigns).toEqual([{ campaign: "spring", visitors: 3, views: 5 }]);
    // Later views add to the row.
    const d = new AnalyticsCounter();
    d.recordView("/?utm_source=partner", headers(), "203.0.113.1", SITE, NOW);
    await writeCounts(second.db, d, NOW);
    expect((await report()).referrers[0]).toEqual({ source: "partner", visitors: 3, views: 6 });
    expect((await db.selectFrom("analytics_held_keys").select("key").execute()).map((row) => row.key)).toEqual([
      "made-up",
    ]);
  });
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

describe("reading", () => {
  it("a report read while another process writes agrees with itself: its totals are its lists' sums", async () => {
    await emptyTables();
    const writer = new AnalyticsCounter();
    const sums = (numbers: Awaited<ReturnType<typeof report>>) => ({
      total: numbers.totals.views,
      pages: numbers.pages.reduce((sum, page) => sum + page.views, 0),
      devices: numbers.devices.reduce((sum, device) => sum + device.views, 0),
    });
    for (let i = 0; i < 30; i++) {
      writer.recordView(`/page-${i}`, headers(), `203.0.113.${i}`, SITE, NOW);
      const [, ...read] = await Promise.all([writeCounts(second.db, writer, NOW), report(), report(), report()]);
      for (const numbers of read) {
        const { total, pages, devices } = sums(numbers);
        expect({ pages, devices }, `write ${i}`).toEqual({ pages: total, devices: total });
      }
    }
    expect(sums(await report())).toEqual({ total: 30, pages: 30, devices: 30 });
  });
});
