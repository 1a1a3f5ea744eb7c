import type { Selectable } from "kysely";
import type { ImportReport, ImportStatus } from "~/lib/import";
import type { Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import type { ImportsTable } from "../db/schema.server";
import { forgetFile, STALE_RECEIVING_MS } from "./store.server";

/**
 * An import's report as the API and the Import screen read it, and the
 * bounds on what imports leave behind: the newest IMPORTS_KEPT reports,
 * and no file of an upload that never finished (its process died).
 */

/** Reports kept; older ones go with the daily prune. */
const IMPORTS_KEPT = 50;

function toReport(row: Selectable<ImportsTable>): ImportReport {
  let problems: string[] = [];
  try {
    problems = JSON.parse(row.problems) as string[];
  } catch {
    problems = [];
  }
  return {
    id: row.id,
    // A file still arriving (`receiving`) is never read here: both reads leave it out.
    status: row.status as ImportStatus,
    kind: row.kind === "wordpress" || row.kind === "ghost" ? row.kind : null,
    fileName: row.file_name,
    total: row.total,
    processed: row.processed,
    created: row.created,
    skipped: row.skipped,
    redirects: row.redirects,
    images: { fetched: row.images_fetched, failed: row.images_failed },
    problems,
    moreProblems: row.more_problems,
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export async function findImport(db: Db, id: string): Promise<ImportReport | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db
    .selectFrom("imports")
    .selectAll()
    .where("id", "=", id)
    .where("status", "!=", "receiving")
    .executeTakeFirst();
  return row && toReport(row);
}

/** Newest first, a page at a time. */
export async function listImports(
  db: Db,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ items: ImportReport[]; total: number }> {
  const rows = await db
    .selectFrom("imports")
    .selectAll()
    .where("status", "!=", "receiving")
    .orderBy("created_at", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await db
    .selectFrom("imports")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("status", "!=", "receiving")
    .executeTakeFirstOrThrow();
  return { items: rows.map(toReport), total: Number(count.count) };
}

/** Uploads that never finished, and reports past the newest IMPORTS_KEPT, with their files. */
export async function pruneImports(db: Db, now = Date.now()): Promise<void> {
  const stale = await db
    .selectFrom("imports")
    .select("id")
    .where("status", "=", "receiving")
    .where("updated_at", "<", new Date(now - STALE_RECEIVING_MS).toISOString())
    .execute();
  for (const { id } of stale) await forgetFile(db, id, { row: true });
  const old = await db
    .selectFrom("imports")
    .select("id")
    .where("status", "in", ["done", "failed"])
    .orderBy("created_at", "desc")
    .offset(IMPORTS_KEPT)
    .limit(1000)
    .execute();
  for (const { id } of old) await forgetFile(db, id, { row: true });
}
