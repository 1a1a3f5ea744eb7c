import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "~/server/db/db.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { STORE_LIMITS } from "~/server/analytics/index.server";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { ApiClient, keepAliveAgent, startServer, type TestServer } from "../support/server";

/**
 * The analytics over HTTP (issue 32, ADR 056), two server processes on one
 * database of the backend under test, as behind a load balancer: the API's
 * checks; views as a browser sends them counted once each, with their page,
 * source and campaign, cache hits included, each visitor once across the two
 * processes; crawlers, prefetches, an administrator, a 404 and the JSON API
 * not counted; no cookie set; a view in the numbers within 10 seconds; a
 * client faking visitors (a User-Agent per request) or sources (made-up ones,
 * each from one visitor) held to its cap and kept from displacing a real
 * source; a flood of unique referrers, campaigns, addresses and 404 paths
 * leaving the tables bounded; kill -9 losing at most the last few seconds,
 * SIGTERM none. The browser's own view (a real Chromium, no other host) is
 * tests/e2e/analytics.spec.ts.
 *
 * Client addresses are told apart by X-Forwarded-For: the test connects from
 * the loopback address, which TRUST_PROXY trusts by default.
 */

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const BROWSER = { accept: "text/html,application/xhtml+xml", "user-agent": CHROME, "sec-fetch-dest": "document" };

let a: TestServer;
let b: TestServer;
let dropDatabase: () => Promise<void>;
let admin: ApiClient;
let slug: string;
const today = () => new Date().toISOString().slice(0, 10);

interface Report {
  totals: { views: number; visitors: number; conversions: number };
  conversions: {
    pages: Array<{ path: string; messages: number }>;
    sources: Array<{ source: string; messages: number }>;
  };
  days: Array<{ date: string; views: number; visitors: number }>;
  pages: Array<{ path: string; views: number }>;
  referrers: Array<{ source: string; visitors: number; views: number }>;
  campaigns: Array<{ campaign: string; visitors: number; views: number }>;
}

const agent = keepAliveAgent(16);

/** A GET as a browser sends it; answers the status and the Set-Cookie and X-Cache headers. */
function view(server: TestServer, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; setCookie: unknown; cache: unknown }>((resolve, reject) => {
    const request = http.get(`${server.url}${path}`, { agent, headers: { ...BROWSER, ...headers } }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({
          status: response.statusCode!,
          setCookie: response.headers["set-cookie"],
          cache: response.headers["x-cache"],
        }),
      );
    });
    request.on("error", reject);
  });
}

async function report(client: ApiClient = admin): Promise<Report> {
  const result = await client.get(`/api/admin/analytics?from=${today()}&to=${today()}`);
  expect(result.status, result.text).toBe(200);
  return result.json as Report;
}

/** Polls the report until `done` holds, for at most `seconds`; answers the last report. */
async function waitFor(done: (numbers: Report) => boolean, seconds = 10): Promise<Report> {
  const end = Date.now() + seconds * 1000;
  let numbers = await report();
  while (!done(numbers) && Date.now() < end) {
    await sleep(250);
    numbers = await report();
  }
  return numbers;
}

beforeAll(async () => {
  const database = await createTestDatabase();
  dropDatabase = database.drop;
  [a, b] = await Promise.all([
    startServer({ DATABASE_URL: database.url, SEED_SAMPLE_POSTS: "true" }),
    startServer({ DATABASE_URL: database.url, SEED_SAMPLE_POSTS: "true" }),
  ]);
  admin = new ApiClient(b.url);
  await admin.signIn();
  const posts = await new ApiClient(a.url).get("/api/posts?limit=1");
  slug = (posts.json as Array<{ slug: string }>)[0]!.slug;
}, 60_000);
afterAll(async () => {
  agent.destroy();
  await Promise.all([a?.stop(), b?.stop()]);
  await dropDatabase?.();
});

describe(`analytics on two processes (${TEST_BACKEND})`, () => {
  it("GET /api/admin/analytics: signed in only, a range of real UTC days of at most 366", async () => {
    const stranger = new ApiClient(a.url);
    expect((await stranger.get(`/api/admin/analytics?from=${today()}&to=${today()}`)).status).toBe(401);
    for (const query of [
      "from=2026-01-01",
      "from=2026-13-01&to=2026-12-31",
      "from=2026-02-01&to=2026-01-01",
      "from=2025-01-01&to=2026-01-02",
      "from=yesterday&to=today",
    ]) {
      const result = await admin.get(`/api/admin/analytics?${query}`);
      expect(result.status, query).toBe(400);
      expect(typeof result.json.error).toBe("string");
    }
    const year = await admin.get("/api/admin/analytics?from=2024-01-01&to=2024-12-31");
    expect(year.status).toBe(200);
    expect(year.json.days).toHaveLength(366);
    expect(year.json.totals).toEqual({ views: 0, visitors: 0, conversions: 0 });
    expect((await admin.post("/api/admin/analytics", {})).status).toBe(405);
  });

  it(
    "counts each view a browser asks for once, with its page, source and campaign, and each visitor once across both",
    { timeout: 60_000 },
    async () => {
      const visitor1 = { "x-forwarded-for": "203.0.113.10" };
      const visitor2 = { "x-forwarded-for": "203.0.113.20" };
      const counted = [
        await view(a, "/", { ...visitor1, referer: "https://news.example.org/item?id=7" }),
        // The same page again: a cache hit, counted as well; a move within the site has no source.
        await view(a, "/", { ...visitor1, referer: `${a.url}/about` }),
        await view(b, `/blog/${slug}?utm_source=newsletter&utm_campaign=launch`, visitor1),
        await view(b, `/blog?article=${slug}`, { ...visitor2, "sec-fetch-site": "none" }),
        await view(a, "/about", visitor2),
      ];
      expect(counted.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(counted[1]!.cache).toBe("hit");
      const signedIn = await view(a, "/", { ...visitor1, cookie: admin.cookie });
      const notCounted = [
        await view(a, "/", {
          "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        }),
        await view(b, "/about", { "user-agent": "facebookexternalhit/1.1" }),
        await view(a, "/", { "user-agent": "curl/8.5.0" }),
        await view(a, "/blog", { "sec-purpose": "prefetch" }),
        await view(a, "/blog", { purpose: "prefetch" }),
        signedIn,
        await view(a, "/no-such-page-anywhere"),
        await view(a, "/api/posts", { accept: "application/json" }),
        await view(a, "/rss.xml", { accept: "*/*" }),
        await view(a, "/about", { accept: "*/*", "sec-fetch-dest": "empty" }),
      ];
      expect(notCounted.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 404, 200, 200, 200]);
      // Counting sets no cookie, on any answer.
      for (const answer of [...counted, ...notCounted]) expect(answer.setCookie).toBeUndefined();

      const started = Date.now();
      const numbers = await waitFor((n) => n.totals.views >= counted.length);
      expect(Date.now() - started).toBeLessThan(10_000);
      // Nothing else comes in later: past one more write, the numbers are the same.
      await sleep(3_500);
      expect(await report()).toEqual(numbers);
      expect(numbers.totals).toEqual({ views: 5, visitors: 2, conversions: 0 });
      expect(numbers.days).toEqual([{ date: today(), views: 5, visitors: 2 }]);
      expect(numbers.pages).toEqual([
        { path: "/", views: 2 },
        { path: `/blog/${slug}`, views: 2 },
        { path: "/about", views: 1 },
      ]);
      // The news site, the newsletter and its campaign each came from one address: counted under "(other)".
      expect(numbers.referrers).toEqual([
        { source: "(other)", visitors: 2, views: 2 },
        { source: "direct", visitors: 1, views: 2 },
      ]);
      expect(numbers.campaigns).toEqual([{ campaign: "(other)", visitors: 1, views: 1 }]);

      // The first visitor sends a contact message from /about: a conversion, with the page and a source of the visit.
      const sent = await new ApiClient(b.url).post(
        "/api/contact",
        {
          name: "Ada",
          email: "ada@example.com",
          phone: "",
          preferredContact: "email",
          service: "systems",
          message: "Hello from the analytics test.",
          elapsedMs: 10_000,
        },
        { ...visitor1, "User-Agent": CHROME, Referer: `${b.url}/about`, Origin: b.url },
      );
      expect(sent.status, sent.text).toBe(201);
      const converted = await waitFor((n) => n.totals.conversions === 1);
      expect(converted.conversions).toMatchObject({
        pages: [{ path: "/about", messages: 1 }],
        sources: [{ source: "news.example.org", messages: 1 }],
      });
      expect(converted.totals.views).toBe(5);
    },
  );

  it(
    "counts 300 User-Agents from one address, on both processes, as at most the cap of visitors; a family's each",
    { timeout: 60_000 },
    async () => {
      const before = (await report()).totals;
      for (let n = 0; n < 300; n++) {
        const answer = await view(n % 2 === 0 ? a : b, "/about", {
          "x-forwarded-for": "198.18.0.1",
          "user-agent": `${CHROME} Extra/${n}`,
        });
        expect(answer.status).toBe(200);
      }
      // Five browsers behind another address, each twice, on both processes.
      for (let n = 0; n < 10; n++) {
        await view(n % 2 === 0 ? a : b, "/", {
          "x-forwarded-for": "198.18.0.2",
          "user-agent": `${CHROME} Home/${n % 5}`,
        });
      }
      await waitFor((numbers) => numbers.totals.views >= before.views + 310);
      // Past one more write of each process, nothing else comes in.
      await sleep(3_500);
      const numbers = await report();
      expect(numbers.totals.views).toBe(before.views + 310);
      expect(numbers.totals.visitors).toBe(before.visitors + STORE_LIMITS.visitorsPerAddress + 5);
    },
  );

  it(
    "keeps a source seen by two visitors, with every view, among 200 made-up ones each from one visitor",
    { timeout: 60_000 },
    async () => {
      const before = (await report()).totals.views;
      // The first visitor of a real source, on one process: written before the second comes.
      for (let i = 0; i < 2; i++) await view(a, "/?utm_source=real-letter", { "x-forwarded-for": "198.18.1.1" });
      await waitFor((numbers) => numbers.totals.views >= before + 2);
      // 200 made-up sources, each from an address of its own, four views each, more than the real one has.
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          while (next < 800) {
            const n = next++;
            const source = n % 200;
            await view(worker % 2 === 0 ? a : b, `/?utm_source=fake-${source}`, {
              "x-forwarded-for": `198.18.2.${source}`,
            });
          }
        }),
      );
      // The second visitor, on the other process.
      await view(b, "/?utm_source=real-letter", { "x-forwarded-for": "198.18.1.2" });
      const numbers = await waitFor((n) => n.totals.views >= before + 803);
      expect(numbers.totals.views).toBe(before + 803);
      expect(numbers.referrers).toContainEqual({ source: "real-letter", visitors: 2, views: 3 });
      expect(numbers.referrers.filter((row) => row.source.startsWith("fake-"))).toEqual([]);
    },
  );

  it(
    "keeps its tables bounded under a flood of 10,000 unique referrers, campaigns, addresses and 404 paths",
    { timeout: 180_000 },
    async () => {
      const before = (await report()).totals.views;
      const flood = 10_000;
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async (_, worker) => {
          const server = worker % 2 === 0 ? a : b;
          while (next < flood) {
            const n = next++;
            const path = n % 10 === 0 ? `/flood-${n}` : `/about?utm_campaign=c${n}`;
            await view(server, path, {
              referer: `https://s${n}.flood.example/`,
              "x-forwarded-for": `198.51.${n >> 8}.${n & 255}`,
            });
          }
        }),
      );
      const numbers = await waitFor((n) => n.totals.views >= before + flood * 0.9, 30);
      // Every view of a page counted (a tenth were 404s), none lost to the bounds.
      expect(numbers.totals.views).toBe(before + flood * 0.9);
      expect(numbers.referrers.length).toBeLessThanOrEqual(50);
      expect(numbers.pages.some((page) => page.path.startsWith("/flood-"))).toBe(false);
      // Every write went through.
      for (const server of [a, b]) expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);

      const connection = connect(resolveDatabase(a.databaseUrl, process.cwd()));
      try {
        const rows = await connection.db
          .selectFrom("analytics_counts")
          .select((eb) => ["dimension", eb.fn.countAll<string | number>().as("rows")])
          .groupBy("dimension")
          .execute();
        for (const { dimension, rows: count } of rows) {
          // Today's keys, and at most a day more if the flood ran past midnight.
          expect(Number(count), dimension).toBeLessThanOrEqual(2 * (STORE_LIMITS.keysPerDay + 1));
        }
      } finally {
        await connection.db.destroy();
      }
    },
  );

  it("loses at most the last few seconds of views to kill -9, and none to a stop", { timeout: 60_000 }, async () => {
    const before = (await report()).totals.views;
    for (let i = 0; i < 20; i++) expect((await view(a, "/about", { "x-forwarded-for": "192.0.2.1" })).status).toBe(200);
    // Past a write: these are in the database.
    await sleep(4_000);
    for (let i = 0; i < 5; i++) await view(a, "/about", { "x-forwarded-for": "192.0.2.1" });
    await a.kill("SIGKILL");
    await sleep(4_000);
    const afterKill = (await report()).totals.views;
    expect(afterKill).toBeGreaterThanOrEqual(before + 20);
    expect(afterKill).toBeLessThanOrEqual(before + 25);

    for (let i = 0; i < 7; i++) await view(b, "/about", { "x-forwarded-for": "192.0.2.2" });
    const databaseUrl = b.databaseUrl;
    await b.stop();
    const connection = connect(resolveDatabase(databaseUrl, process.cwd()));
    try {
      const row = await connection.db
        .selectFrom("analytics_days")
        .select("views")
        .where("day", "=", today())
        .executeTakeFirstOrThrow();
      expect(Number(row.views)).toBe(afterKill + 7);
    } finally {
      await connection.db.destroy();
    }
  });
});
