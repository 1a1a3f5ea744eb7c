import { getDb } from "../db/index.server";
import type { Config } from "../platform/config.server";
import { scheduleAnalytics } from "./store.server";

/**
 * What the analytics register once per process, called from
 * server/startup.ts: their batch writer (a flusher) and their daily pruning
 * (a schedule), both run by the jobs domain's workers (ADR 067).
 */
export function init(config: Pick<Config, "analyticsRetentionDays">): void {
  scheduleAnalytics(getDb, { retentionDays: config.analyticsRetentionDays });
}
