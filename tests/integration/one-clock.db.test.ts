import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offsetOf } from "~/server/platform/clock.server";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { startReceiver, type Receiver } from "../support/receiver";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * One clock for publication (ADR 077): two app processes on one PostgreSQL
 * database, one of them on a machine whose clock is 3 s fast (faketime). A
 * post scheduled 4 s ahead by the database's clock must not show on the fast
 * one before the database's clock reaches its date, then shows on both, and
 * its `post.published` webhook reaches a real receiver once, not before that
 * date. Without site time the fast process shows the post, and fires its
 * event, 3 s early.
 *
 * PostgreSQL only: a SQLite site is one machine and one file, its offset 0.
 */

const SKEW_S = 3;
const AHEAD_MS = 4000;
/** Room for the offsets' error (half a loopback round trip) and rounding: far under the skew. */
const SLACK_MS = 250;
const SLUG = "out-on-one-clock";

let onTime: TestServer;
let fast: TestServer;
let database: pg.Client;
let dropDatabase: () => Promise<void>;
/** This test process's clock corrected to the database's, measured as the site measures it. */
let databaseNow: () => number;
/** Stamps each delivery with `databaseNow()` as it arrives. */
let receiver: Receiver;

async function measureTestClock(): Promise<() => number> {
  const samples = [];
  for (let i = 0; i < 5; i++) {
    const sentMs = Date.now();
    const { rows } = await database.query<{ ms: number }>(
      "select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms",
    );
    samples.push({ sentMs, dbMs: Number(rows[0]!.ms), receivedMs: Date.now() });
  }
  const offsetMs = offsetOf(samples)!.offsetMs;
  return () => Date.now() + offsetMs;
}

/** Whether `server` shows the post: its page, and its link on /blog (through the page cache, as a visitor). */
async function shows(server: TestServer): Promise<{ page: boolean; listed: boolean }> {
  const [page, list] = await Promise.all([fetch(`${server.url}/blog/${SLUG}`), fetch(`${server.url}/blog`)]);
  await page.arrayBuffer();
  return { page: page.status === 200, listed: (await list.text()).includes(`href="/blog/${SLUG}"`) };
}

describe.runIf(TEST_BACKEND === "postgres")("one clock across machines on one PostgreSQL database", () => {
  beforeAll(async () => {
    receiver = await startReceiver(() => databaseNow());
    const created = await createTestDatabase(TEST_BACKEND, { migrated: true });
    dropDatabase = created.drop;
    const env = { DATABASE_URL: created.url, OUTBOUND_ALLOW_PRIVATE: "true" };
    [onTime, fast] = await Promise.all([
      startServer(env),
      // The monotonic clock left alone: timers and the event loop run at their pace.
      startServer({ ...env, FAKETIME_DONT_FAKE_MONOTONIC: "1" }, { under: ["faketime", "-f", `+${SKEW_S}s`] }),
    ]);
    database = new pg.Client({ connectionString: created.url });
    await database.connect();
    databaseNow = await measureTestClock();
  }, 60_000);
  afterAll(async () => {
    await database?.end();
    await Promise.all([onTime?.stop(), fast?.stop()]);
    await dropDatabase?.();
    await receiver?.close();
  });

  it("a scheduled post is out on both at its date by the database's clock, and its webhook fires once", async () => {
    // Each process measured itself at start; the fast one says so.
    const measured = (server: TestServer) => server.logs.find((line) => String(line.msg).startsWith("site time:"));
    expect(Math.abs(Number(measured(onTime)?.offsetMs))).toBeLessThan(SLACK_MS);
    expect(Math.abs(Number(measured(fast)?.offsetMs) + SKEW_S * 1000)).toBeLessThan(SLACK_MS);
    expect(fast.logs.some((line) => line.level === 40 && String(line.msg).includes("more than a second"))).toBe(true);
    expect(onTime.logs.some((line) => line.level === 40 && String(line.msg).includes("more than a second"))).toBe(
      false,
    );

    // Saved through the fast process, as an owner whose browser reaches that machine.
    const owner = new ApiClient(fast.url);
    await owner.signIn();
    const url = receiver.url;
    const deliveries = receiver.received;
    const hook = await owner.post("/api/admin/webhooks", {
      url,
      events: ["post.published"],
      password: TEST_ADMIN.password,
    });
    expect(hook.status).toBe(201);
    const due = Math.ceil(databaseNow() + AHEAD_MS);
    const saved = await owner.post("/api/admin/posts", {
      title: "Out on one clock",
      slug: SLUG,
      excerpt: "Scheduled a few seconds ahead",
      content: "Out when the database says so.",
      published: true,
      publishDate: new Date(due).toISOString(),
    });
    expect(saved.status).toBe(201);

    // Each round: the database's time it was sent and answered, and what each process showed.
    const rounds: Array<{ sent: number; answered: number; fast: boolean; onTime: boolean }> = [];
    const isOut = (shown: { page: boolean; listed: boolean }) => shown.page || shown.listed;
    while (databaseNow() < due + 5000) {
      const sent = databaseNow();
      const [fromFast, fromOnTime] = await Promise.all([shows(fast), shows(onTime)]);
      rounds.push({ sent, answered: databaseNow(), fast: isOut(fromFast), onTime: isOut(fromOnTime) });
      if ([fromFast, fromOnTime].every((shown) => shown.page && shown.listed)) break;
      await sleep(100);
    }
    // Nothing showed it before its date; the fast process was asked within its 3 s of error, and said no.
    expect(rounds.filter((round) => (round.fast || round.onTime) && round.answered < due - SLACK_MS)).toEqual([]);
    expect(rounds.some((round) => !round.fast && round.sent > due - 2500 && round.sent < due - SLACK_MS)).toBe(true);
    // Then both show it, page and list, soon after its date.
    const last = rounds.at(-1)!;
    expect(last.fast && last.onTime).toBe(true);
    expect(last.answered).toBeLessThan(due + 2000);

    // The event: once, not before the date, whichever process ran its job.
    while (deliveries.length === 0 && databaseNow() < due + 10_000) await sleep(50);
    await sleep(1000);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.at).toBeGreaterThanOrEqual(due - SLACK_MS);
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({ type: "post.published", data: { slug: SLUG } });
  });
});
