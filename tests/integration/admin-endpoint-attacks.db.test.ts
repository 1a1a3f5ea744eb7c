import { randomUUID } from "node:crypto";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LIVE_SHARE_LINKS } from "~/lib/share-links";
import { MAX_REDIRECTS } from "~/lib/redirects";
import { connect, type Connection } from "~/server/db/db.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Attacks on the admin endpoints of site content, redirects, analytics and
 * the check before publishing, on the backend under test (TEST_DATABASE),
 * each one that once worked: a redirect target whose dot segments resolve
 * to `//host` (an open redirect), and requests in parallel racing a counted
 * limit (PostgreSQL let each count before any saved). The generic hostile
 * bodies (limits, NUL, malformed JSON) are in hostile-input.db.test.ts.
 */

let server: TestServer;
let admin: ApiClient;
let connection: Connection;

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
  connection = connect(resolveDatabase(server.databaseUrl, process.cwd()));
});
afterAll(async () => {
  await connection?.db.destroy();
  await server?.stop();
});

/** The status and Location a visitor gets for `path`, redirects not followed. */
function visit(path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}${path}`, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode!, location: response.headers.location }));
      })
      .on("error", reject);
  });
}

/** A Location that a browser would take to another host. */
const leavesTheSite = (location: string | undefined) =>
  location !== undefined && new URL(location, "https://site.example").host !== "site.example";

describe("a redirect to another host is only an https address the owner typed", () => {
  // Each starts with one slash, and resolves (dot segments, backslashes) to //evil.example.
  const disguised = [
    "/.//evil.example/x",
    "/..//evil.example/x",
    "/a/..//evil.example/x",
    "/%2e//evil.example/x",
    "/%2E%2E//evil.example/x",
    "/./\\evil.example/x",
    "/.\\/evil.example/x",
    "/x/../\\evil.example/x",
  ];

  it.each(disguised)("POST with to %j is a 400, and the from leads nowhere", async (to) => {
    const from = `/disguised-${randomUUID()}`;
    const answer = await admin.post("/api/admin/redirects", { from, to });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json.error).toMatch(/^to must be a path on this site/);
    const visited = await visit(from);
    expect(visited.status).toBe(404);
    expect(leavesTheSite(visited.location)).toBe(false);
  });

  it("a PUT and a CSV import of such targets are refused too, naming the lines", async () => {
    const created = await admin.post("/api/admin/redirects", { from: "/kept-local", to: "/about" });
    expect(created.status).toBe(201);
    const edited = await admin.put(`/api/admin/redirects/${created.json.id}`, {
      from: "/kept-local",
      to: "/.//evil.example",
    });
    expect(edited.status).toBe(400);
    const csv = ["from,to", "/fine,/about", ...disguised.map((to, i) => `/csv-disguised-${i},${to}`)].join("\n");
    const imported = await admin.request("POST", "/api/admin/redirects.csv", csv, { "Content-Type": "text/csv" });
    expect(imported.status, imported.text).toBe(400);
    expect(imported.json.problems.map((problem: { line: number }) => problem.line)).toEqual(
      disguised.map((_, i) => i + 3),
    );
    expect((await visit("/kept-local")).location).toBe("/about");
    expect((await visit("/fine")).status).toBe(404);
  });

  it("a row stored before the check (a // target) is never sent as a Location", async () => {
    const now = new Date().toISOString();
    await connection.db
      .insertInto("redirects")
      .values({
        id: randomUUID(),
        from_path: "/stored-before-the-fix",
        to_target: "//evil.example/x",
        to_path: "//evil.example/x",
        status: 301,
        automatic: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // Every process loads the redirects again when the content version changes.
    await connection.db
      .updateTable("content_version")
      .set((eb) => ({ version: eb("version", "+", 1) }))
      .execute();
    const visited = await visit("/stored-before-the-fix");
    expect(visited.status).toBe(404);
    expect(leavesTheSite(visited.location)).toBe(false);
    // An https address the owner set is still sent as it is.
    expect((await admin.post("/api/admin/redirects", { from: "/away", to: "https://example.org/x" })).status).toBe(201);
    expect(await visit("/away")).toEqual({ status: 301, location: "https://example.org/x" });
  });
});

describe("a share link opens only its own page", () => {
  it("a landing page's token opens neither the about page's preview nor a post's", async () => {
    const link = await admin.post("/api/admin/content/landing/share-links");
    expect(link.status).toBe(201);
    const token = new URL(link.json.url as string).pathname.split("/").pop()!;
    expect((await visit(`/pages/preview/landing/${token}`)).status).toBe(200);
    expect((await visit(`/pages/preview/about/${token}`)).status).toBe(404);
    expect((await visit(`/blog/preview/${token}`)).status).toBe(404);
    // Revoked from another page's address: nothing happens.
    expect((await admin.delete(`/api/admin/content/about/share-links/${link.json.id}`)).status).toBe(404);
    expect((await visit(`/pages/preview/landing/${token}`)).status).toBe(200);
  });
});

describe("requests in parallel racing a counted limit", () => {
  it(`${3 * MAX_LIVE_SHARE_LINKS} share links of one page asked at once make ${MAX_LIVE_SHARE_LINKS}`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 * MAX_LIVE_SHARE_LINKS }, () => admin.post("/api/admin/content/about/share-links")),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_LIVE_SHARE_LINKS);
    expect(statuses.filter((status) => status === 409)).toHaveLength(2 * MAX_LIVE_SHARE_LINKS);
    const stored = await connection.db
      .selectFrom("share_links")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where("document_kind", "=", "page")
      .where("document_id", "=", "about")
      .executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(MAX_LIVE_SHARE_LINKS);
  });

  it(`redirects created at once one short of ${MAX_REDIRECTS}: one is saved`, { timeout: 60_000 }, async () => {
    const existing = await connection.db
      .selectFrom("redirects")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const missing = MAX_REDIRECTS - 1 - Number(existing.count);
    for (let i = 0; i < missing; i += 500) {
      await connection.db
        .insertInto("redirects")
        .values(
          Array.from({ length: Math.min(500, missing - i) }, (_, j) => ({
            id: randomUUID(),
            from_path: `/filler-${i + j}`,
            to_target: "/about",
            to_path: "/about",
            status: 301,
            automatic: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => admin.post("/api/admin/redirects", { from: `/racing-${i}`, to: "/about" })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const list = await admin.get("/api/admin/redirects?limit=1");
    expect(Number(list.headers.get("x-total-count"))).toBe(MAX_REDIRECTS);

    // Two imports at once, each of one new redirect past a freed place: one is saved.
    const freed = await admin.get("/api/admin/redirects?limit=1&q=/filler-");
    expect((await admin.delete(`/api/admin/redirects/${freed.json[0].id}`)).status).toBe(204);
    const imports = await Promise.all(
      [0, 1].map((i) =>
        admin.request("POST", "/api/admin/redirects.csv", `/import-racing-${i},/about\n`, {
          "Content-Type": "text/csv",
        }),
      ),
    );
    expect(imports.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(Number((await admin.get("/api/admin/redirects?limit=1")).headers.get("x-total-count"))).toBe(MAX_REDIRECTS);
  });
});

describe("what a visitor sends to the counters", () => {
  const BROWSER = {
    accept: "text/html",
    "user-agent":
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "sec-fetch-dest": "document",
  };

  it("NUL, controls and formulas in a view's source and a 404's path are stored harmless, the CSV neutralises formulas", async () => {
    const send = (path: string, headers: Record<string, string>) =>
      fetch(`${server.url}${path}`, { headers: { ...BROWSER, ...headers }, redirect: "manual" }).then(
        async (answer) => (await answer.arrayBuffer(), answer.status),
      );
    // From two addresses: a source or campaign seen from one alone is counted under "(other)" (ADR 056).
    for (const address of ["198.51.100.7", "198.51.100.9"]) {
      expect(
        await send("/about?utm_source=%3DHYPERLINK(%22https%3A%2F%2Fevil.example%22)%00&utm_campaign=%00%01-2%2B3", {
          "x-forwarded-for": address,
        }),
      ).toBe(200);
    }
    expect(
      await send("/missing%00page", { referer: "https://ref.example/%00", "x-forwarded-for": "198.51.100.8" }),
    ).toBe(404);
    // The counters write every few seconds.
    let csv = "";
    let logged: string[] = [];
    for (let i = 0; i < 20 && !(csv.includes("HYPERLINK") && logged.includes("/missing%00page")); i++) {
      await sleep(1_000);
      csv = (await admin.get("/api/admin/analytics.csv")).text;
      const log = await admin.get("/api/admin/not-found?limit=100");
      expect(log.status).toBe(200);
      logged = log.json.map((entry: { path: string }) => entry.path);
    }
    const rows = csv.split("\r\n");
    expect(rows).toContain(`source,"'=HYPERLINK(""https://evil.example"")",2,2,`);
    expect(rows).toContain("campaign,'-2+3,2,2,");
    expect(logged).toContain("/missing%00page");
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
