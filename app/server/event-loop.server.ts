import type { Logger } from "pino";

/** No single piece of work may hold the event loop longer than this (issue 13). */
export const EVENT_LOOP_BUDGET_MS = 100;

const TICK_MS = 10;

/**
 * Logs a warning, "event loop blocked", whenever the event loop was held
 * longer than the budget: while it is held, no visitor gets an answer. An
 * operator's alarm, and what the hostile-input and fuzz tests look for.
 *
 * A tick that comes late is our work only if the process spent that time on
 * the CPU: on a busy machine the kernel may simply not run the process for a
 * while, which no code of ours can prevent. So a late tick counts as blocked
 * when the process used at least the budget in CPU time meanwhile (all its
 * threads, so a parallel garbage collection counts too); a late tick without
 * it is logged at debug level as "event loop delayed".
 */
export function watchEventLoop(log: Logger, budgetMs = EVENT_LOOP_BUDGET_MS): () => void {
  let lastTick = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const lateMs = now - lastTick - TICK_MS;
    if (lateMs > budgetMs) {
      const used = process.cpuUsage(lastCpu);
      const cpuMs = (used.user + used.system) / 1000;
      const fields = { lateMs: Math.round(lateMs), cpuMs: Math.round(cpuMs), budgetMs };
      if (cpuMs >= budgetMs) log.warn(fields, "event loop blocked");
      else log.debug(fields, "event loop delayed");
    }
    lastTick = now;
    lastCpu = process.cpuUsage();
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
