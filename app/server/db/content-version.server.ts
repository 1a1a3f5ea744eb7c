import type { Transaction } from "kysely";
import type { Connection, Db } from "./db.server";
import type { Database } from "./schema.server";

/**
 * The version of everything public pages show. Every write that changes a
 * public page bumps it in the same transaction; a cached page is served only
 * while the version it was rendered at is still the current one, whichever
 * process made the change (ADR 024).
 *
 * In db/, below every domain: posts, images, settings and restores bump it
 * inside their own transactions, and the page cache reads it (ADR 052).
 */
const READ_VERSION = "select version from content_version where id = 1";

/**
 * Reads the current version. On the page cache's hot path, once per public
 * request: a statement prepared once (SQLite) or a named prepared statement
 * (PostgreSQL), without the query builder.
 */
export function contentVersionReader(connection: Connection): () => Promise<string> {
  if (connection.kind === "sqlite") {
    const statement = connection.sqlite.prepare<[], number>(READ_VERSION).pluck();
    // better-sqlite3 reads synchronously; callers await the answer.
    return () => Promise.resolve(String(statement.get() ?? 0));
  }
  const query = { name: "read_content_version", text: READ_VERSION };
  return async () => {
    const result = await connection.pool.query<{ version: string }>(query);
    return String(result.rows[0]?.version ?? 0);
  };
}

export async function bumpContentVersion(db: Db | Transaction<Database>): Promise<void> {
  await db
    .updateTable("content_version")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("id", "=", 1)
    .execute();
}

/**
 * The next moment public pages change by themselves: the earliest publish
 * date of a published post that is not public yet (scheduled publishing).
 * Undefined when nothing is scheduled.
 */
export async function nextScheduledChange(db: Db, now = new Date()): Promise<number | undefined> {
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.min("publish_date").as("next"))
    .where("published", "=", 1)
    .where("publish_date", ">", now.toISOString())
    .executeTakeFirst();
  return row?.next ? Date.parse(String(row.next)) : undefined;
}

/** Runs a write that changes public pages, and bumps the version with it. */
export async function changingContent<T>(db: Db, write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const result = await write(trx);
    await bumpContentVersion(trx);
    return result;
  });
}
