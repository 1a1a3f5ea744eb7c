import { ping, type Db } from "../db/db.server";

/** Off-site backups' last attempt as /healthz shows it (ADR 076): never its reason or its key. */
export interface BackupHealth {
  lastAt: string | null;
  size: number | null;
  result: "ok" | "failed" | null;
}

/**
 * /healthz: 200 when the app and its database answer, 503 otherwise. With
 * off-site backups on, `backup` says how the last one went (all null before
 * the first); it never changes the status, which is about the database
 * alone: a failing bucket must not take the site out of a load balancer.
 */
export async function healthResponse(db: Db, backup?: (db: Db) => Promise<BackupHealth>): Promise<Response> {
  const ok = await ping(db);
  const body: Record<string, unknown> = { status: ok ? "ok" : "unavailable", database: ok ? "ok" : "unreachable" };
  if (ok && backup) body.backup = await backup(db).catch(() => null);
  return Response.json(body, { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
