import { defineJob, defineSchedule } from "../jobs/index.server";
import { pruneImports } from "./report.server";

/**
 * What the import registers once per process, from server/startup.ts: the
 * daily prune of old reports and of uploads that never finished. (The
 * import's own job kind registers as run.server.ts loads.)
 */
export function init(): void {
  const prune = defineJob<Record<string, never>>("import.prune", async (_payload, { db }) => pruneImports(db), {
    maxAttempts: 1,
  });
  defineSchedule("import.prune", 24 * 60 * 60_000, prune);
}
