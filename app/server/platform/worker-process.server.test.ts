import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { WorkerProcess, WorkerStartError } from "./worker-process.server";

/**
 * The worker process's deadlines on real child processes: a job's deadline
 * counts that job alone, not the process's start nor the jobs before it; a
 * job past it is killed with its process; a process that cannot start is a
 * WorkerStartError, not a job that took too long.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-worker-"));
/** A job `{ ms }` holds its process's CPU that long and answers the process's pid. */
const JOB = `export default function run(job) {
  if (job.warmUp) return "";
  const end = Date.now() + job.ms;
  while (Date.now() < end);
  return process.pid;
}`;
const quick = path.join(dir, "quick.mjs");
fs.writeFileSync(quick, JOB);
/** Loads for 2 s, as the renderer's modules can on a loaded machine. */
const slowStart = path.join(dir, "slow-start.mjs");
fs.writeFileSync(slowStart, `await new Promise((resolve) => setTimeout(resolve, 2_000));\n${JOB}`);
const broken = path.join(dir, "broken.mjs");
fs.writeFileSync(broken, `throw new Error("cannot load");\n${JOB}`);

const started: WorkerProcess[] = [];
const worker = (file: string, startDeadlineMs = 30_000) => {
  const workerProcess = new WorkerProcess({ file, heapMb: 64, startDeadlineMs });
  started.push(workerProcess);
  return workerProcess;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((workerProcess) => workerProcess.close()));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("WorkerProcess", () => {
  it("does not count the process's start in a job's deadline", async () => {
    await expect(worker(slowStart).run<number>({ ms: 10 }, 1_000)).resolves.toEqual(expect.any(Number));
  });

  it("does not count the jobs queued before a job in its deadline", async () => {
    const workerProcess = worker(quick);
    await workerProcess.run({ ms: 1 }, 5_000);
    // Counted from when it was asked for, the third would be 1.2 s late.
    const answers = await Promise.all([1, 2, 3, 4].map(() => workerProcess.run({ ms: 400 }, 1_000)));
    expect(answers).toEqual(Array(4).fill(expect.any(Number)));
  });

  it("aborts a job past its deadline and kills its process: the next job gets a new one", async () => {
    const workerProcess = worker(quick);
    const first = await workerProcess.run<number>({ ms: 1 }, 5_000);
    const late = await workerProcess.run({ ms: 3_000 }, 200).catch((error: unknown) => error);
    expect((late as Error).name).toBe("AbortError");
    const next = await workerProcess.run<number>({ ms: 1 }, 5_000);
    expect(next).not.toBe(first);
  });

  it("replaces a process that died between jobs, and the site's process lives on", async () => {
    const workerProcess = worker(quick);
    const pid = await workerProcess.run<number>({ ms: 1 }, 5_000);
    process.kill(pid, "SIGKILL");
    await expect.poll(() => isRunning(pid)).toBe(false);
    const next = await workerProcess.run<number>({ ms: 1 }, 5_000);
    expect(next).not.toBe(pid);
  });

  it("answers WorkerStartError when the process cannot start", async () => {
    const error = await worker(broken, 1_000)
      .run({ ms: 1 }, 5_000)
      .catch((error: unknown) => error);
    expect(error).toBeInstanceOf(WorkerStartError);
    expect((error as Error).message).toBe("the worker process could not start");
  });

  it("says a process closed as it started was stopped, not that it could not start", async () => {
    const workerProcess = worker(slowStart);
    const answer = workerProcess.run({ ms: 1 }, 5_000).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await workerProcess.close();
    const error = await answer;
    expect(error).toBeInstanceOf(WorkerStartError);
    expect((error as Error).message).toBe("the worker process was stopped as it started");
  });
});
