import { offsiteBackupsWhere, readBackupStatus } from "~/server/backup/index.server";
import type { Db } from "~/server/db/db.server";
import { dbContext } from "~/server/platform/context.server";
import { healthResponse } from "~/server/platform/health.server";
import type { Route } from "./+types/healthz";

/** The last off-site backup's time, size and result (ADR 076). */
async function backupHealth(db: Db) {
  const status = await readBackupStatus(db);
  return { lastAt: status?.lastAt ?? null, size: status?.size ?? null, result: status?.result ?? null };
}

export const loader = ({ context }: Route.LoaderArgs) =>
  healthResponse(context.get(dbContext), offsiteBackupsWhere() ? backupHealth : undefined);
