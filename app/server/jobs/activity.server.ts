import { z } from "zod";
import type { Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import { limit, offset, page, parseQuery, screenPage, type QueryResult } from "../platform/paging.server";
import { WAKE_CHANNEL } from "./queue.server";
import { isPostgres } from "../db/dialect.server";
import { sql } from "kysely";
import { siteDate } from "../platform/clock.server";

/**
 * What the owner sees of background work (Admin > Activity, ADR 067): the
 * failed jobs, newest first, with their error, and a retry that queues one
 * again with fresh attempts; the count the admin shell shows beside Activity.
 */

export interface FailedJob {
  id: string;
  kind: string;
  error: string | null;
  attempts: number;
  failedAt: string;
  createdAt: string;
}

const statusQuery = z.enum(["failed"], { error: "status must be failed" }).default("failed");
const jobListQuery = z.object({ limit, offset, status: statusQuery });
const jobScreenQuery = z.object({ page });

/** GET /api/admin/jobs: `status` (failed, the default and only one listed), `limit`, `offset`. */
export function parseJobListQuery(url: URL): QueryResult<{ limit: number; offset: number }> {
  const parsed = parseQuery(jobListQuery, url);
  return parsed.ok ? { ok: true, value: { limit: parsed.value.limit, offset: parsed.value.offset } } : parsed;
}

/** /admin/activity: `page`. */
export function parseJobScreenQuery(url: URL): QueryResult<{ page: number; limit: number; offset: number }> {
  const parsed = parseQuery(jobScreenQuery, url);
  return parsed.ok ? { ok: true, value: screenPage(parsed.value.page) } : parsed;
}

/** One page of the failed jobs, most recently failed first, and how many there are. */
export async function listFailedJobs(
  db: Db,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ jobs: FailedJob[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("jobs")
      .select(["id", "kind", "last_error", "attempts", "updated_at", "created_at"])
      .where("status", "=", "failed")
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute(),
    countFailedJobs(db),
  ]);
  return {
    jobs: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      error: row.last_error,
      attempts: Number(row.attempts),
      failedAt: row.updated_at,
      createdAt: row.created_at,
    })),
    total,
  };
}

/** Failed jobs, for the count beside Activity (an index on status keeps it cheap). */
export async function countFailedJobs(db: Db): Promise<number> {
  const row = await db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("status", "=", "failed")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Queues a failed job again, due now, with its attempts reset; its last error
 * stays until it runs. Answers its id and kind; undefined when there is no
 * failed job with this id.
 */
export async function retryJob(
  db: Db,
  id: string,
): Promise<{ id: string; kind: string; status: "queued" } | undefined> {
  if (!isRecordId(id)) return undefined;
  const now = siteDate().toISOString();
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("jobs")
      .set({ status: "queued", attempts: 0, run_at: now, lease_owner: null, lease_until: null, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", "failed")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    if (isPostgres(trx)) await sql`select pg_notify(${WAKE_CHANNEL}, '')`.execute(trx);
    const { kind } = await trx.selectFrom("jobs").select("kind").where("id", "=", id).executeTakeFirstOrThrow();
    return { id, kind, status: "queued" as const };
  });
}
