import { containsPattern } from "../db/like.server";
import { randomUUID } from "node:crypto";
import { sql, type Selectable, type SqlBool, type Transaction } from "kysely";
import {
  checkFromPath,
  checkTarget,
  isWordPressIdPath,
  MAX_REDIRECTS,
  REDIRECT_LIMITS,
  reservedPathMessage,
  type Redirect,
  type RedirectStatus,
} from "~/lib/redirects";
import { changingContent } from "../db/content-version.server";
import { isUniqueViolation, type Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import type { Database, RedirectsTable } from "../db/schema.server";
import { placeOne, RedirectError } from "./plan.server";

/**
 * Redirects (ADR 054): the owner's, and the ones the site keeps when a post
 * or a category changes its address. Every stored redirect leads where it
 * ends in one hop: a chain is collapsed and a loop refused when a redirect is
 * saved (the rules are plan.server.ts's), so the lookup before the page
 * cache (lookup.server.ts) never follows more than one. Every write bumps
 * the content version, which tells every process to load the redirects
 * again.
 */

type Trx = Transaction<Database>;
type Row = Selectable<RedirectsTable>;

/** What the owner saves: from and to as typed, checked here. */
export interface RedirectInput {
  from: string;
  to: string;
  status?: RedirectStatus;
}

const toRedirect = (row: Row): Redirect => ({
  id: row.id,
  from: row.from_path,
  to: row.to_target,
  status: row.status === 302 ? 302 : 301,
  automatic: row.automatic === 1,
  imported: row.imported === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The owner's input checked and spelled as stored, or a 400. */
export function checkInput(input: RedirectInput): { from: string; to: string; status: RedirectStatus } {
  const from = checkFromPath(input.from);
  if (!from.ok) throw new RedirectError(400, from.message);
  const to = checkTarget(input.to);
  if (!to.ok) throw new RedirectError(400, to.message);
  return { from: from.value, to: to.value, status: input.status ?? 301 };
}

/** The PostgreSQL advisory lock the writes that count the redirects take (analytics' is 560_056). */
const COUNT_LOCK = 540_054;

/**
 * Writes that check MAX_REDIRECTS take turns from here to their commit: on
 * PostgreSQL two creates at 9,999 each counted 9,999 and both saved. (SQLite's
 * IMMEDIATE transactions already take turns.)
 */
async function countingInTurn(trx: Trx): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${COUNT_LOCK})`.execute(trx);
}

/** The owner's and the site's redirects, which MAX_REDIRECTS bounds (imported ones have their own bound). */
async function countRedirects(db: Db | Trx, { imported = false } = {}): Promise<number> {
  const row = await db
    .selectFrom("redirects")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("imported", "=", imported ? 1 : 0)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A unique violation is two saves of one `from` at once: the second is told so. */
async function saving<T>(db: Db, from: string, write: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await changingContent(db, write);
  } catch (error) {
    if (isUniqueViolation(error)) throw new RedirectError(409, `A redirect from ${from} already exists`);
    throw error;
  }
}

/** POST /api/admin/redirects and the screen's "Add": a new redirect, 201. */
export async function createRedirect(db: Db, input: RedirectInput): Promise<Redirect> {
  const checked = checkInput(input);
  return saving(db, checked.from, async (trx) => {
    await countingInTurn(trx);
    if ((await countRedirects(trx)) >= MAX_REDIRECTS) {
      throw new RedirectError(409, `The site keeps at most ${MAX_REDIRECTS.toLocaleString("en-US")} redirects`);
    }
    return toRedirect(await placeOne(trx, checked));
  });
}

/** The screen's "Save" on a redirect: undefined when no redirect has this id. An edited redirect is the owner's. */
export async function updateRedirect(db: Db, id: string, input: RedirectInput): Promise<Redirect | undefined> {
  if (!isRecordId(id)) return undefined;
  const checked = checkInput(input);
  return saving(db, checked.from, async (trx) => {
    const row = await trx.selectFrom("redirects").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return undefined;
    return toRedirect(await placeOne(trx, checked, { replacing: row }));
  });
}

/** The deleted redirect, or undefined when no redirect has this id. */
export async function deleteRedirect(db: Db, id: string): Promise<Redirect | undefined> {
  if (!isRecordId(id)) return undefined;
  return changingContent(db, async (trx) => {
    const row = await trx.selectFrom("redirects").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return undefined;
    await trx.deleteFrom("redirects").where("id", "=", id).execute();
    return toRedirect(row);
  });
}

export async function findRedirect(db: Db, id: string): Promise<Redirect | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db.selectFrom("redirects").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toRedirect(row);
}

export interface RedirectQuery {
  limit: number;
  offset: number;
  /** From or to contains it, ignoring case. */
  q?: string;
}

/** One page of redirects, by `from` in order, and how many match. */
export async function listRedirects(
  db: Db,
  { limit, offset, q }: RedirectQuery,
): Promise<{ redirects: Redirect[]; total: number }> {
  let rows = db.selectFrom("redirects").selectAll();
  let count = db.selectFrom("redirects").select((eb) => eb.fn.countAll<string | number>().as("count"));
  if (q) {
    const pattern = containsPattern(q);
    const matches = sql<SqlBool>`(lower(from_path) like lower(${pattern}) escape '\\' or lower(to_target) like lower(${pattern}) escape '\\')`;
    rows = rows.where(matches);
    count = count.where(matches);
  }
  const [page, counted] = await Promise.all([
    rows.orderBy("from_path").orderBy("id").limit(limit).offset(offset).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { redirects: page.map(toRedirect), total: Number(counted.count) };
}

/**
 * A post or category moved from `oldPath` to `newPath` (ADR 054): `newPath`
 * is its address now, so a redirect from it goes, and `oldPath` and every
 * earlier address lead to `newPath` in one hop. Runs in the caller's
 * transaction, which bumps the content version.
 */
export async function followAddressChange(trx: Trx, oldPath: string, newPath: string): Promise<void> {
  if (oldPath === newPath) return;
  await takeAddress(trx, newPath);
  await placeOne(trx, { from: oldPath, to: newPath, status: 301 }, { automatic: true, overwrite: true });
}

/** A post or category now answers at `path`: it wins over a redirect from there. */
export async function takeAddress(trx: Trx, path: string): Promise<void> {
  await trx.deleteFrom("redirects").where("from_path", "=", path).execute();
}

/**
 * An imported post's or category's old address (ADR 074), stored when
 * nothing redirects from there yet: the owner's redirects and earlier ones
 * win, and none leads to itself. `to` is a page of this site that answers
 * (the post or category just made), so no chain can form. Answers whether
 * one was stored; the caller checks that `from` is not one of the site's
 * own addresses and bounds the count (MAX_IMPORTED_REDIRECTS).
 */
export async function importRedirect(trx: Trx, from: string, to: string): Promise<boolean> {
  if (from === to || from.length > REDIRECT_LIMITS.from) return false;
  if (!isWordPressIdPath(from)) {
    const checked = checkFromPath(from);
    if (!checked.ok || checked.value !== from) return false;
  }
  const existing = await trx.selectFrom("redirects").select("id").where("from_path", "=", from).executeTakeFirst();
  if (existing) return false;
  const now = new Date().toISOString();
  await trx
    .insertInto("redirects")
    .values({
      id: randomUUID(),
      from_path: from,
      to_target: to,
      to_path: to,
      status: 301,
      automatic: 0,
      imported: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await trx.deleteFrom("not_found_paths").where("path", "=", from).execute();
  return true;
}

/** `path` answers no longer (its post is deleted, its category empty): no redirect leads there. */
export async function dropRedirectsTo(trx: Trx, path: string): Promise<void> {
  await trx.deleteFrom("redirects").where("to_path", "=", path).execute();
}

/**
 * Where each of these paths leads, for those a redirect covers: the path on
 * this site it redirects to, or null for an https address (the check before
 * publishing, ADR 057). In pieces of 500, within any driver's limit.
 */
export async function redirectsFrom(db: Db, paths: string[]): Promise<Map<string, string | null>> {
  const targets = new Map<string, string | null>();
  for (let i = 0; i < paths.length; i += 500) {
    const rows = await db
      .selectFrom("redirects")
      .select(["from_path", "to_path"])
      .where("from_path", "in", paths.slice(i, i + 500))
      .execute();
    // A stored redirect from an address the site answers itself is never answered (lookup.server.ts).
    for (const row of rows)
      if (reservedPathMessage(row.from_path) === undefined) targets.set(row.from_path, row.to_path);
  }
  return targets;
}

/** Every redirect's from, target and status, for the lookup; bounded by MAX_REDIRECTS (and the owner's renames). */
export async function readAllRedirects(db: Db): Promise<Array<{ from: string; to: string; status: number }>> {
  const rows = await db.selectFrom("redirects").select(["from_path", "to_target", "status"]).execute();
  return rows.map((row) => ({ from: row.from_path, to: row.to_target, status: row.status }));
}

export { countRedirects, countingInTurn, RedirectError };
