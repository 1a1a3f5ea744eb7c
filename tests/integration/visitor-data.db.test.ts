import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * The rule of docs/security.md ("What the site keeps about a visitor"): no
 * client address is stored in the clear, anywhere. One visitor on IPv4 and
 * one on IPv6 view pages (with a campaign and a referrer), search, hit a
 * 404, send a contact message, book a call, sign up for the newsletter,
 * fail to sign in with an unknown e-mail and with a wrong password, and
 * finally sign in as the administrator; then no
 * byte of the SQLite file (and its WAL) and no row of any PostgreSQL table
 * holds either address as text, nor the unknown e-mail a stranger typed.
 *
 * Client addresses come from X-Forwarded-For, trusted from loopback.
 */

const IPV4 = "198.51.100.173";
const IPV6 = "2001:db8:4d2:77::1f";
// The IPv6 visitor's /64, as a throttle used to spell it: no row may hold it either.
const IPV6_NETWORK = "2001:db8:4d2:77";
const STRANGER_EMAIL = "guess-4d2@example.net";
const BROWSER = {
  accept: "text/html,application/xhtml+xml",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "sec-fetch-dest": "document",
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  // Calls every day at every hour, bookable at once, whatever day the test runs.
  const admin = new ApiClient(server.url);
  await admin.signIn(TEST_ADMIN);
  const hours = await admin.put("/api/admin/booking", {
    enabled: true,
    timeZone: "UTC",
    slotMinutes: 30,
    minNoticeHours: 0,
    horizonDays: 7,
    weekly: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: "00:00", end: "23:30" })),
  });
  expect(hours.status, hours.text).toBe(200);
});
afterAll(() => server?.stop());

async function actAs(address: string) {
  const visitor = new ApiClient(server.url);
  const from = { "X-Forwarded-For": address };
  for (const path of ["/", "/blog?utm_source=letter-4d2&utm_campaign=autumn-4d2", "/about", "/no-such-page-4d2"]) {
    await visitor.get(path, { ...BROWSER, referer: "https://referrer-4d2.example/", ...from });
  }
  expect((await visitor.get("/blog/search?q=garden", { ...BROWSER, ...from })).status).toBe(200);
  const message = {
    name: "Visitor 4d2",
    email: "visitor-4d2@example.com",
    preferredContact: "email",
    service: "research",
    message: "Please call me about a project.",
  };
  expect((await visitor.post("/api/contact", message, from)).status).toBe(201);
  // A call booked (ADR 071): a lead and a booking, neither with the address.
  const { slots } = (await visitor.get("/api/booking/slots", from)).json as { slots: Array<{ start: string }> };
  const booking = { start: slots[address === IPV4 ? 0 : 1]!.start, name: "Visitor 4d2", email: message.email };
  const booked = await visitor.post("/api/booking", booking, from);
  expect(booked.status, booked.text).toBe(201);
  // A newsletter sign-up (ADR 072): the address asked for is kept, the client's is not.
  expect((await visitor.post("/api/subscribe", { email: message.email }, from)).status).toBe(202);
  const unknown = await visitor.post("/api/auth/login", { email: STRANGER_EMAIL, password: "wrong-password" }, from);
  expect(unknown.status).toBe(401);
  const wrong = await visitor.post("/api/auth/login", { email: TEST_ADMIN.email, password: "wrong-password" }, from);
  expect(wrong.status).toBe(401);
  const admin = new ApiClient(server.url);
  await admin.signIn(TEST_ADMIN, from);
  expect((await admin.get("/api/auth/me", from)).status).toBe(200);
}

/** Every stored byte of the SQLite database, its WAL included. */
function sqliteBytes(): string {
  const file = server.databaseUrl;
  return [file, `${file}-wal`]
    .filter((name) => fs.existsSync(name))
    .map((name) => fs.readFileSync(name).toString("latin1"))
    .join("\n");
}

/** Every row of every table of the PostgreSQL database, as text. */
async function postgresRows(): Promise<string> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = current_schema()",
    );
    const texts: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`select t::text as row from "${name}" t`);
      texts.push(`${name}: ${rows.rows.map((r) => r.row).join("\n")}`);
    }
    return texts.join("\n");
  } finally {
    await client.end();
  }
}

describe("what the site stores about a visitor", () => {
  it("keeps no client address and no stranger's e-mail in the clear, anywhere in the database", async () => {
    await actAs(IPV4);
    await actAs(IPV6);
    // The analytics and the not-found log are written in batches every few seconds.
    await sleep(4_000);
    const stored = TEST_BACKEND === "postgres" ? await postgresRows() : sqliteBytes();
    // The test must see the data it looks through: the contact messages are there.
    expect(stored).toContain("visitor-4d2@example.com");
    expect(stored).toContain("/no-such-page-4d2");
    for (const secret of [IPV4, IPV6, IPV6_NETWORK, STRANGER_EMAIL]) {
      expect(stored.includes(secret), `${secret} is stored`).toBe(false);
    }
  });
});
