import fs from "node:fs";
import { setImmediate } from "node:timers/promises";
import type { Logger } from "pino";

/** No single piece of work may hold the event loop longer than this (issue 13). */
export const EVENT_LOOP_BUDGET_MS = 100;

const TICK_MS = 10;

/**
 * Logs a warning, "event loop blocked", whenever the event loop was held
 * longer than the budget: while it is held, no visitor gets an answer. An
 * operator's alarm, and what the hostile-input and fuzz tests look for.
 *
 * A tick that comes late is our work only if the loop's thread spent that
 * time on the CPU: on a busy machine the kernel may simply not run it for a
 * while, which no code of ours can prevent. So a late tick counts as blocked
 * when the thread used at least the budget in CPU time meanwhile (a garbage
 * collection pause counts: the thread takes part in it); a late tick without
 * it is logged at debug level as "event loop delayed". The thread's own time,
 * not the process's: a worker thread busy with a search (ADR 048) does not
 * hold the loop, however much CPU it uses.
 */
export function watchEventLoop(log: Logger, budgetMs = EVENT_LOOP_BUDGET_MS): () => void {
  let lastTick = performance.now();
  let lastCpu = threadCpuMs();
  const timer = setInterval(() => {
    const now = performance.now();
    const lateMs = now - lastTick - TICK_MS;
    const cpuNow = threadCpuMs();
    if (lateMs > budgetMs) {
      const cpuMs = cpuNow - lastCpu;
      const fields = { lateMs: Math.round(lateMs), cpuMs: Math.round(cpuMs), budgetMs };
      if (cpuMs >= budgetMs) log.warn(fields, "event loop blocked");
      else log.debug(fields, "event loop delayed");
    }
    lastTick = now;
    lastCpu = cpuNow;
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Measures the longest time the event loop was held from now until `stop`,
 * in milliseconds: for each gap between two ticks of a 1 ms timer, the lesser
 * of how late the tick came and the CPU time the loop's thread used meanwhile
 * (so a gap in which the kernel did not run the thread is not counted as
 * ours). For tests that bound how long one piece of work may hold the loop.
 *
 * Where the process exposes `gc` (Vitest's workers: vitest.config.ts), the
 * heap is collected in full first. A test worker's heap holds what earlier
 * files left behind, and a collection of it that fell inside the window was
 * counted as this work's: 35 ms of one 20 ms bound. Collected first, a pause
 * in the window is one the work under test brought on.
 */
export function measureEventLoopHold(): { stop(): number } {
  (globalThis as { gc?: () => void }).gc?.();
  let longest = 0;
  let lastTick = performance.now();
  let lastCpu = threadCpuMs();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpuNow = threadCpuMs();
    longest = Math.max(longest, Math.min(now - lastTick, cpuNow - lastCpu));
    lastTick = now;
    lastCpu = cpuNow;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      // The gap still open when measuring ends.
      const now = performance.now();
      return Math.max(longest, Math.min(now - lastTick, threadCpuMs() - lastCpu));
    },
  };
}

/** The open /proc file of this thread's scheduler figures; undefined where there is none. */
let schedstat: { fd: number; buffer: Buffer } | null | undefined;

/**
 * The CPU time the calling thread has used, in milliseconds: on Linux its
 * line in /proc (the first field, nanoseconds on the CPU), read again from
 * one open file, one system call each; elsewhere the whole process's time,
 * the nearest Node offers before `process.threadCpuUsage` (Node 23.9). Each
 * thread has its own copy of this module, so its own file.
 */
export function threadCpuMs(): number {
  if (schedstat === undefined) {
    try {
      schedstat = { fd: fs.openSync("/proc/thread-self/schedstat", "r"), buffer: Buffer.alloc(128) };
    } catch {
      schedstat = null;
    }
  }
  if (schedstat === null) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
  const { fd, buffer } = schedstat;
  const text = buffer.toString("latin1", 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
  return Number(text.slice(0, text.indexOf(" "))) / 1e6;
}

/** How long a long piece of work runs, by default, before it gives way to other requests. */
const SLICE_MS = 10;

/**
 * A function to await between the steps of a long piece of work on the event
 * loop (SQLite's queries are synchronous): once `sliceMs` have passed since
 * the last turn it lets other requests in (setImmediate), else it answers
 * undefined at no cost. Used by the backup writer and the redirects' CSV import.
 */
export function givingWay(sliceMs = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return setImmediate().then(() => {
      since = performance.now();
    });
  };
}
