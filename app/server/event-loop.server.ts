import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Logger } from "pino";

/** No single piece of work may hold the event loop longer than this (issue 13). */
export const EVENT_LOOP_BUDGET_MS = 100;

/**
 * Logs a warning, "event loop blocked", for every second in which the event
 * loop was held longer than the budget: while it is held, no visitor gets an
 * answer. An operator's alarm, and what the hostile-input tests look for.
 */
export function watchEventLoop(log: Logger, budgetMs = EVENT_LOOP_BUDGET_MS): () => void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const timer = setInterval(() => {
    const maxMs = delay.max / 1e6;
    if (maxMs > budgetMs) log.warn({ maxMs: Math.round(maxMs), budgetMs }, "event loop blocked");
    delay.reset();
  }, 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}
