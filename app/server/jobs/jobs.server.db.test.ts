import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../../../tests/support/backend";
import { anotherConnection, freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { EVENT_NAMES, type EventName } from "~/lib/events";
import type { Connection, Db } from "../db/db.server";
import {
  defineJob,
  defineSchedule,
  emit,
  enqueue,
  FAILED_JOBS_KEPT,
  type JobContext,
  type JobKind,
  listFailedJobs,
  onEvent,
  pruneJobs,
  retryJob,
  type SiteEvent,
} from "./index.server";
import { claimJobs, retryDelayMs } from "./queue.server";
import { registeredKind } from "./registry.server";
import { runScheduleIfDue } from "./schedules.server";
import { startJobs } from "./worker.server";

/**
 * The queue on the backend under test (ADR 067), two connections standing
 * for two processes: the outbox (a rolled-back change enqueues nothing),
 * idempotency keys under parallel enqueues, back-off then failed, retry,
 * an expired lease, schedules once per period, pruning and shutdown. On
 * SQLite the "other process" is the same connection: two connections in one
 * thread would wait on each other's lock synchronously, and the single
 * writer serializes them either way (the queue across real processes:
 * tests/integration/jobs-processes.db.test.ts).
 */

let database: FreshDatabase;
let second: Connection;
let db: Db;
let peer: Db;
beforeAll(async () => {
  database = await freshDatabase();
  second = anotherConnection(database);
  db = database.connection.db;
  peer = TEST_BACKEND === "postgres" ? second.db : db;
});
afterAll(async () => {
  await second?.db.destroy();
  await database?.cleanup();
});
beforeEach(async () => {
  await db.deleteFrom("jobs").execute();
});

const runs: Array<{ id: string; attempt: number }> = [];
const recorded: JobKind<{ id: string }> = defineJob<{ id: string }>(
  "test.recorded",
  ({ id }, { attempt }: JobContext) => {
    runs.push({ id, attempt });
    return Promise.resolve();
  },
);
const failing = defineJob<{ id: string }>(
  "test.failing",
  ({ id }, { attempt }) => {
    runs.push({ id, attempt });
    return Promise.reject(new Error(`broken ${id} on run ${attempt}`));
  },
  { maxAttempts: 3, retryDelaysMs: [200, 400] },
);
let release: () => void = () => {};
const stuck = defineJob<{ id: string }>(
  "test.stuck",
  async ({ id }, { signal }) => {
    runs.push({ id, attempt: 0 });
    await new Promise<void>((resolve) => {
      release = resolve;
      signal.addEventListener("abort", () => resolve());
    });
  },
  { timeoutMs: 300 },
);

const statusOf = async (id: string) =>
  (await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow()).status;

describe("the jobs queue", () => {
  it("names the contract's events", () => {
    const names: readonly EventName[] = EVENT_NAMES;
    expect(names).toEqual([
      "post.published",
      "contact.received",
      "booking.created",
      "booking.cancelled",
      "subscriber.confirmed",
    ]);
  });

  it("enqueues in the caller's transaction: a rolled-back change leaves no job and no event", async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueue(trx, recorded, { id: "rolled-back" });
        await emit(trx, "contact.received", { id: "x", name: "n", email: "e@example.com" });
        throw new Error("the change fails");
      }),
    ).rejects.toThrow("the change fails");
    expect(await db.selectFrom("jobs").selectAll().execute()).toEqual([]);

    await db.transaction().execute(async (trx) => {
      await emit(trx, "contact.received", { id: "y", name: "n", email: "e@example.com" });
    });
    const rows = await db.selectFrom("jobs").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "event.dispatch", status: "queued" });
    expect(JSON.parse(rows[0]!.payload)).toMatchObject({ event: "contact.received", data: { id: "y" } });
  });

  it("keeps one job per idempotency key under parallel enqueues from two connections", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? peer : db)
          .transaction()
          .execute((trx) => enqueue(trx, recorded, { id: "once" }, { idempotencyKey: "the-key" })),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const rows = await db.selectFrom("jobs").selectAll().where("kind", "=", "test.recorded").execute();
    expect(rows).toHaveLength(1);
  });

  it("claims a job once between two connections, and again after its lease runs out", async () => {
    const { id } = await enqueue(db, stuck, { id: "leased" });
    const kind = registeredKind("test.stuck")!;
    const [a, b] = await Promise.all([claimJobs(db, "a", [kind], 5), claimJobs(peer, "b", [kind], 5)]);
    expect([...a, ...b].map((job) => job.id)).toEqual([id]);
    // Its holder died: nobody takes it while the lease (300 ms time-out + 300 ms) lasts.
    expect(await claimJobs(peer, "c", [kind], 5)).toEqual([]);
    await sleep(700);
    const again = await claimJobs(peer, "c", [kind], 5);
    expect(again.map((job) => [job.id, job.attempts, job.lease_owner])).toEqual([[id, 2, "c"]]);
  });

  it("retries with exponential back-off and jitter, then marks the job failed with its error; retry queues it again", async () => {
    const kind = registeredKind("test.failing")!;
    for (let i = 0; i < 50; i++) {
      const first = retryDelayMs(kind, 1, 1);
      expect(first).toBeGreaterThanOrEqual(200);
      expect(first).toBeLessThanOrEqual(240);
      expect(retryDelayMs(kind, 2, 1)).toBeGreaterThanOrEqual(400);
      expect(retryDelayMs(kind, 9, 0.5)).toBeLessThanOrEqual(240);
    }
    runs.length = 0;
    const { id } = await enqueue(db, failing, { id: "f" });
    const jobs = startJobs({ db: () => db, concurrency: 1 });
    try {
      await expect.poll(() => statusOf(id), { timeout: 5000, interval: 50 }).toBe("failed");
      expect(runs.filter((r) => r.id === "f").map((r) => r.attempt)).toEqual([1, 2, 3]);
      const { jobs: failed, total } = await listFailedJobs(db, { limit: 10, offset: 0 });
      expect(total).toBe(1);
      expect(failed[0]).toMatchObject({ id, kind: "test.failing", attempts: 3, error: "broken f on run 3" });

      expect(await retryJob(db, id)).toEqual({ id, kind: "test.failing", status: "queued" });
      expect(await retryJob(db, id)).toBeUndefined();
      await expect.poll(() => statusOf(id), { timeout: 5000, interval: 50 }).toBe("failed");
      expect(runs.filter((r) => r.id === "f")).toHaveLength(6);
    } finally {
      await jobs.stop(1000);
    }
  });

  it("dispatches an event to every subscriber with its id, type and data", async () => {
    const seen: SiteEvent[] = [];
    onEvent((event) => {
      seen.push(event);
      return Promise.resolve();
    });
    await emit(db, "post.published", { id: "p1", slug: "s", title: "T" }, { idempotencyKey: "post.published:p1:d" });
    await emit(db, "post.published", { id: "p1", slug: "s", title: "T" }, { idempotencyKey: "post.published:p1:d" });
    const jobs = startJobs({ db: () => db, concurrency: 2 });
    try {
      await expect.poll(() => seen.length, { timeout: 5000, interval: 50 }).toBe(1);
      await sleep(200);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ type: "post.published", data: { id: "p1", slug: "s", title: "T" } });
      expect(seen[0]!.id).toMatch(/^[\da-f-]{36}$/);
    } finally {
      await jobs.stop(1000);
    }
  });

  it("runs a job due within the poll at its time, not at the next poll", async () => {
    runs.length = 0;
    const jobs = startJobs({ db: () => db, concurrency: 1 });
    try {
      await sleep(50); // idle now: its next poll is about a second away
      const enqueued = Date.now();
      await enqueue(db, recorded, { id: "soon" }, { runAt: new Date(enqueued + 150) });
      await expect.poll(() => runs.length, { timeout: 5000, interval: 10 }).toBe(1);
      const ranAfterMs = Date.now() - enqueued;
      expect(ranAfterMs).toBeGreaterThanOrEqual(150);
      expect(ranAfterMs).toBeLessThan(700);
    } finally {
      await jobs.stop(1000);
    }
  });

  it("gives back a running job at shutdown after the grace, its interrupted run not counted", async () => {
    runs.length = 0;
    const { id } = await enqueue(db, stuck, { id: "at-shutdown" });
    const jobs = startJobs({ db: () => db, concurrency: 1 });
    await expect.poll(() => runs.length, { timeout: 5000, interval: 20 }).toBe(1);
    await jobs.stop(50);
    const row = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "queued", attempts: 0, lease_owner: null });
    release();
  });

  it("runs a schedule once per period however many processes look", async () => {
    const tick = defineJob<Record<string, never>>("test.tick", () => Promise.resolve());
    const schedule = { name: "test.every-minute", everyMs: 60_000, kind: tick };
    defineSchedule(schedule.name, schedule.everyMs, tick);
    const now = Date.parse("2026-11-28T10:00:30Z");
    const nexts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => runScheduleIfDue(i % 2 ? peer : db, schedule, now)),
    );
    expect(new Set(nexts)).toEqual(new Set([Date.parse("2026-11-28T10:01:00Z")]));
    expect(await db.selectFrom("jobs").select("kind").where("kind", "=", "test.tick").execute()).toHaveLength(1);
    // Within the period: nothing more. The next period: one more.
    await runScheduleIfDue(peer, schedule, now + 20_000);
    expect(await db.selectFrom("jobs").select("kind").where("kind", "=", "test.tick").execute()).toHaveLength(1);
    await Promise.all([runScheduleIfDue(db, schedule, now + 31_000), runScheduleIfDue(peer, schedule, now + 31_000)]);
    expect(await db.selectFrom("jobs").select("kind").where("kind", "=", "test.tick").execute()).toHaveLength(2);
    // Each job is enqueued as of the time its schedule ran for, in that period, however long the
    // schedule's transaction took: the off-site backup names its object by it.
    const enqueued = await db.selectFrom("jobs").select("created_at").where("kind", "=", "test.tick").execute();
    expect(enqueued.map((job) => job.created_at).sort()).toEqual([
      new Date(now).toISOString(),
      new Date(now + 31_000).toISOString(),
    ]);
  });

  it("prunes done jobs after their retention and failed ones after theirs and past a cap", async () => {
    const at = (ms: number) => new Date(ms).toISOString();
    const now = Date.parse("2026-11-28T12:00:00Z");
    const row = (i: number, status: "done" | "failed" | "queued", ended: number) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      kind: "test.recorded",
      payload: "{}",
      status,
      run_at: at(ended),
      attempts: 1,
      max_attempts: 1,
      created_at: at(ended),
      updated_at: at(ended),
    });
    const rows = [
      row(1, "done", now - 2 * 3_600_000),
      row(2, "done", now - 10_000),
      row(3, "failed", now - 40 * 86_400_000),
      row(4, "queued", now - 40 * 86_400_000),
      ...Array.from({ length: FAILED_JOBS_KEPT + 5 }, (_, i) => row(100 + i, "failed", now - i * 1000)),
    ];
    for (let i = 0; i < rows.length; i += 200)
      await db
        .insertInto("jobs")
        .values(rows.slice(i, i + 200))
        .execute();
    const removed = await pruneJobs(db, { doneRetentionMs: 3_600_000, failedRetentionMs: 30 * 86_400_000 }, now);
    expect(removed).toBe(1 + 1 + 5);
    const left = await db.selectFrom("jobs").select(["id", "status"]).execute();
    expect(left.filter((r) => r.status === "failed")).toHaveLength(FAILED_JOBS_KEPT);
    expect(left.map((r) => r.id)).toEqual(expect.arrayContaining([rows[1]!.id, rows[3]!.id, rows[4]!.id]));
    expect(left.map((r) => r.id)).not.toContain(rows.at(-1)!.id);
  });
});
