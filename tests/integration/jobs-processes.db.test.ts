import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/server/db/db.server";
import { defineJob, enqueue } from "~/server/jobs/index.server";
import { freshDatabase, type FreshDatabase } from "../support/database";

/**
 * The queue across real processes on one database (ADR 067): each job of a
 * thousand runs exactly once between two worker processes, and a job whose
 * process is killed outright (SIGKILL) runs again once its lease runs out.
 * The workers are tests/support/job-worker.ts, the real jobs domain with two
 * kinds of its own.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const WORKER = path.join(ROOT, "tests/support/job-worker.ts");

// Registered here only so that this process can enqueue them; the workers run them.
const count = defineJob<{ n: number }>("test.count", () => Promise.reject(new Error("runs in a worker")));
const hang = defineJob<{ n: number }>("test.hang", () => Promise.reject(new Error("runs in a worker")), {
  timeoutMs: 1000,
  maxAttempts: 3,
});

interface Worker {
  lines: string[];
  child: ChildProcess;
  exited: Promise<void>;
}

let database: FreshDatabase;
let db: Db;
const workers: Worker[] = [];
beforeEach(async () => {
  database = await freshDatabase();
  db = database.connection.db;
});
afterEach(async () => {
  for (const worker of workers.splice(0)) {
    worker.child.kill("SIGKILL");
    await worker.exited;
  }
  await database.cleanup();
});

async function startWorker(): Promise<Worker> {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATABASE_URL: database.url, LOG_LEVEL: "warn", JOB_WORKERS: "4" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const worker: Worker = { lines: [], child, exited: new Promise((resolve) => child.once("exit", () => resolve())) };
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    worker.lines.push(...lines);
  });
  workers.push(worker);
  await expect.poll(() => worker.lines.includes("ready"), { timeout: 20_000, interval: 50 }).toBe(true);
  return worker;
}

const runsOf = (worker: Worker, word: string) =>
  worker.lines.filter((line) => line.startsWith(`${word} `)).map((line) => Number(line.slice(word.length + 1)));

describe("jobs across processes", () => {
  it("runs each of 1,000 jobs exactly once between two processes", async () => {
    const total = 1000;
    for (let i = 0; i < total; i += 100)
      await db.transaction().execute(async (trx) => {
        for (let n = i; n < i + 100; n++) await enqueue(trx, count, { n });
      });
    const [a, b] = await Promise.all([startWorker(), startWorker()]);
    const done = async () =>
      Number(
        (
          await db
            .selectFrom("jobs")
            .select((eb) => eb.fn.countAll<string | number>().as("n"))
            .where("status", "=", "done")
            .executeTakeFirstOrThrow()
        ).n,
      );
    await expect.poll(done, { timeout: 60_000, interval: 200 }).toBe(total);
    const ran = [...runsOf(a!, "ran"), ...runsOf(b!, "ran")].sort((x, y) => x - y);
    expect(ran).toEqual(Array.from({ length: total }, (_, n) => n));
    // Both took part.
    expect(runsOf(a!, "ran").length).toBeGreaterThan(0);
    expect(runsOf(b!, "ran").length).toBeGreaterThan(0);
    const attempts = await db.selectFrom("jobs").select("attempts").distinct().execute();
    expect(attempts.map((row) => Number(row.attempts))).toEqual([1]);
  }, 90_000);

  it("runs a job again after its lease when the process running it is killed with SIGKILL", async () => {
    const { id } = await enqueue(db, hang, { n: 7 });
    const first = await startWorker();
    await expect.poll(() => runsOf(first, "started"), { timeout: 10_000, interval: 20 }).toEqual([7]);
    const killedAt = Date.now();
    first.child.kill("SIGKILL");
    await first.exited;
    const leased = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(leased).toMatchObject({ status: "running", attempts: 1 });

    const second = await startWorker();
    await expect.poll(() => runsOf(second, "started"), { timeout: 10_000, interval: 20 }).toEqual([7]);
    // Not before the lease (the 1 s time-out and as much again) ran out.
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(leased.lease_until!));
    expect(Date.parse(leased.lease_until!) - killedAt).toBeGreaterThan(0);
    const again = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(again).toMatchObject({ status: "running", attempts: 2 });
    expect(again.lease_owner).not.toBe(leased.lease_owner);
  }, 40_000);
});
