import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "../db/db.server";
import type { Listener } from "../db/listener.server";
import { getLogger } from "../platform/logger.server";
import {
  claimJobs,
  completeJob,
  failJob,
  onLocalEnqueue,
  POLL_MS,
  releaseJobs,
  WAKE_CHANNEL,
  wakeHereAt,
  type JobRow,
} from "./queue.server";
import {
  registeredFlushers,
  registeredKind,
  registeredKinds,
  registeredSchedules,
  type Flusher,
} from "./registry.server";
import { runScheduleIfDue } from "./schedules.server";
import { siteNow } from "../platform/clock.server";

/**
 * The workers of one process (ADR 067), started by server/main.ts only: CLI
 * commands and tests that do not want them never start them. A loop claims
 * due jobs while it has free slots and otherwise sleeps until PostgreSQL's
 * NOTIFY, a local enqueue, a job ending or the fall-back poll (once a second)
 * wakes it. It also runs the schedules when due and the flushers on their
 * timers. stop() ends it gracefully: no new claims, running jobs finish
 * within the grace, the rest are given back for another process.
 */

/** After a failed claim (the database away), wait this long before trying again. */
const ERROR_PAUSE_MS = 2000;

export interface JobsOptions {
  db: () => Db;
  /** Jobs run at a time in this process. */
  concurrency: number;
  /** The process's LISTEN connection (PostgreSQL; undefined on SQLite): NOTIFY wakes the loop. */
  listener?: Listener;
  /** JOB_DELAY_SCALE: retry delays are multiplied by it (1 but in tests). */
  delayScale?: number;
  /** Only these kinds, and no schedules or flushers: a command-line tool that does one piece of work. */
  only?: string[];
}

interface Running {
  job: JobRow;
  abort: AbortController;
  done: Promise<void>;
}

export interface Jobs {
  /** Stops claiming, waits up to `graceMs` for running jobs, gives back the rest, flushes once more. */
  stop(graceMs: number): Promise<void>;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)) || "failed";

export function startJobs({ db, concurrency, listener, delayScale = 1, only }: JobsOptions): Jobs {
  const log = getLogger();
  const processTag = `${os.hostname().slice(0, 30)}:${process.pid}`;
  const running = new Map<string, Running>();
  let stopping = false;
  let wake: () => void = () => {};
  let woken = false;
  const poke = () => {
    woken = true;
    wake();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopping) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const stopLocal = onLocalEnqueue(poke);
  // Woken by each NOTIFY, and once whenever listening (again): a wake-up sent meanwhile was missed.
  const stopListening = listener?.subscribe(WAKE_CHANNEL, { notify: poke, listening: poke });
  const nextScheduleCheck = new Map<string, number>();

  const run = (job: JobRow) => {
    const kind = registeredKind(job.kind);
    const abort = new AbortController();
    const entry: Running = { job, abort, done: Promise.resolve() };
    entry.done = (async () => {
      const attempt = Number(job.attempts);
      try {
        if (!kind) throw new Error(`no handler for ${job.kind}`);
        // A run cut short by a dead process counted as an attempt; past the last one it is failed, not run again.
        if (attempt > Number(job.max_attempts))
          throw new Error("the process running it stopped before it ended, on every attempt");
        const timer = setTimeout(() => abort.abort(new Error(`timed out after ${kind.timeoutMs} ms`)), kind.timeoutMs);
        try {
          const aborted = new Promise<never>((_, reject) =>
            abort.signal.addEventListener("abort", () => reject(abort.signal.reason as Error), { once: true }),
          );
          const ctx = {
            db: db(),
            attempt,
            maxAttempts: Number(job.max_attempts),
            jobId: job.id,
            enqueuedAt: job.created_at,
            signal: abort.signal,
          };
          await Promise.race([kind.handler(JSON.parse(job.payload), ctx), aborted]);
        } finally {
          clearTimeout(timer);
        }
        if (!(await completeJob(db(), job)))
          log.warn({ jobId: job.id, kind: job.kind }, "job ended after its lease was taken by another worker");
      } catch (error) {
        if (stopping && abort.signal.aborted) return; // given back by stop()
        const fields = { jobId: job.id, kind: job.kind, attempt, err: errorText(error) };
        try {
          const { outcome, delayMs, runAt } = await failJob(db(), job, kind, errorText(error), delayScale);
          if (outcome === "failed") log.error(fields, "job failed; giving up");
          else {
            log.warn({ ...fields, retryInMs: delayMs }, "job failed; will retry");
            // Sooner than the poll when the delay is short (a test's scale): look again when it is due.
            wakeHereAt(runAt);
          }
        } catch (failure) {
          log.error({ err: failure, jobId: job.id }, "could not record a failed job; its lease will expire");
        }
      } finally {
        running.delete(job.id);
        poke();
      }
    })();
    running.set(job.id, entry);
  };

  const runSchedules = async () => {
    const now = siteNow();
    for (const schedule of only ? [] : registeredSchedules()) {
      if ((nextScheduleCheck.get(schedule.name) ?? 0) > now) continue;
      try {
        nextScheduleCheck.set(schedule.name, await runScheduleIfDue(db(), schedule, now));
      } catch (error) {
        nextScheduleCheck.set(schedule.name, now + ERROR_PAUSE_MS);
        log.warn({ err: error, schedule: schedule.name }, "could not run a schedule");
      }
    }
  };

  const kindsToClaim = () => (only ? registeredKinds().filter((kind) => only.includes(kind.kind)) : registeredKinds());

  const loop = (async () => {
    while (!stopping) {
      woken = false;
      let pause = POLL_MS;
      try {
        await runSchedules();
        const free = concurrency - running.size;
        const owner = `${processTag}:${randomUUID().slice(0, 8)}`;
        const claimed = free > 0 ? await claimJobs(db(), owner, kindsToClaim(), free) : [];
        for (const job of claimed) run(job);
        // Every slot filled: more may be due at once.
        if (claimed.length > 0 && claimed.length === free) continue;
      } catch (error) {
        log.warn({ err: error }, "could not claim jobs");
        pause = ERROR_PAUSE_MS;
      }
      if (!stopping) await sleep(pause);
    }
  })();

  const flushing = (only ? [] : registeredFlushers()).map((flusher) => startFlusher(flusher, log));

  return {
    async stop(graceMs) {
      stopping = true;
      wake();
      stopLocal();
      await loop;
      stopListening?.();
      const all = [...running.values()];
      const finished = Promise.all(all.map((entry) => entry.done));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      const unfinished = [...running.values()];
      if (unfinished.length > 0) {
        for (const entry of unfinished) entry.abort.abort(new Error("the process is stopping"));
        await releaseJobs(
          db(),
          unfinished.map((entry) => entry.job),
        ).catch((error: unknown) => log.error({ err: error }, "could not give back unfinished jobs"));
        log.warn({ jobs: unfinished.length }, "jobs still running at shutdown were given back");
      }
      await Promise.all(flushing.map((stop) => stop()));
    },
  };
}

/** A flusher's timer; answers the function that stops it after a last flush. One flush at a time; a failure is logged, not retried. */
function startFlusher(flusher: Flusher, log: ReturnType<typeof getLogger>): () => Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    writing = writing
      .then(flusher.flush)
      .catch((error: unknown) =>
        log.error({ err: error, flusher: flusher.name }, `${flusher.name} could not be written`),
      );
    return writing;
  };
  const timer = setInterval(() => void flush(), flusher.everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    return flush();
  };
}
