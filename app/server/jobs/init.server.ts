import type { Config } from "../platform/config.server";
import { getLogger } from "../platform/logger.server";
import { pruneJobs } from "./queue.server";
import { defineJob, defineSchedule } from "./registry.server";

/**
 * What the jobs domain registers once per process, called from
 * server/startup.ts: its own pruning, a schedule that keeps the jobs table
 * bounded (ADR 067). Run every half retention, between a second and an hour.
 */
export function init(config: Pick<Config, "jobs">): void {
  const retention = {
    doneRetentionMs: config.jobs.doneRetentionMs,
    failedRetentionMs: config.jobs.failedRetentionMs,
  };
  const prune = defineJob<Record<string, never>>(
    "jobs.prune",
    async (_payload, { db }) => {
      const removed = await pruneJobs(db, retention);
      if (removed > 0) getLogger().info({ removed }, "finished jobs pruned");
    },
    { maxAttempts: 1 },
  );
  const everyMs = Math.min(60 * 60_000, Math.max(1000, Math.floor(retention.doneRetentionMs / 2)));
  defineSchedule("jobs.prune", everyMs, prune);
}
