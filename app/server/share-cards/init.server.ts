import { defineJob, defineSchedule } from "../jobs/index.server";
import { getLogger } from "../platform/logger.server";
import { pruneShareCards } from "./prune.server";

/**
 * What the share cards register once per process, from server/startup.ts:
 * the daily pruning of cards no page names any more. (The drawing job's
 * kind registers as job.server.ts loads.)
 */
export function init(): void {
  const prune = defineJob<Record<string, never>>(
    "share-card.prune",
    async (_payload, { db }) => {
      const removed = await pruneShareCards(db);
      if (removed > 0) getLogger().info({ removed }, "share cards pruned");
    },
    { maxAttempts: 1 },
  );
  defineSchedule("share-card.prune", 24 * 60 * 60_000, prune);
}
