import type { Config } from "../platform/config.server";
import { scheduleAuditPruning } from "./audit.server";

/**
 * What the audit domain registers once per process, called from
 * server/startup.ts: the pruning of entries older than AUDIT_RETENTION_DAYS,
 * a schedule the workers run (ADR 067).
 */
export function init(config: Pick<Config, "auditRetentionDays">): void {
  scheduleAuditPruning(config.auditRetentionDays);
}
