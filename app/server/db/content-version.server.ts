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
 * A primary-key read that takes longer than this means the database is in
 * trouble: it counts as a time-out (the probe then decides, ADR 075), so a
 * cached page is served stale within about a second of a silent network
 * instead of after the web queries' 7 s.
 */
const VERSION_READ_TIMEOUT_MS = 1_000;

/**
 * The current version: a reader shared by everything in this process that
 * asks (the page cache, the redirects, the kept public lists). On the page
 * cache's hot path, once per public request.
 *
 * - SQLite (one machine): a statement prepared once; reading it costs less
 *   than keeping it in step would.
 * - PostgreSQL: a read that starts after the caller asked, so an edit that
 *   any process has answered shows on the next request here (ADR 079).
 *   Callers that ask while a read is running share the next one: at most
 *   one read runs and one waits, however many requests arrive. While the
 *   database cannot be reached, or when the read takes over a second, a
 *   refusal (the page cache then answers what it has, stale).
 */
export function contentVersionReader(connection: Connection): () => Promise<string> {
  let reader = readers.get(connection);
  if (!reader) readers.set(connection, (reader = versionReader(connection)));
  return reader;
}

const readers = new WeakMap<Connection, () => Promise<string>>();

function versionReader(connection: Connection): () => Promise<string> {
  if (connection.kind === "sqlite") {
    const statement = connection.sqlite.prepare<[], number>(READ_VERSION).pluck();
    // better-sqlite3 reads synchronously; callers await the answer.
    return () => Promise.resolve(String(statement.get() ?? 0));
  }
  const { pool, reachability } = connection;
  const query = { name: "read_content_version", text: READ_VERSION };
  const unreachable = new Error("Connection terminated: the database cannot be reached");
  return readsStartedAfterAsking(async () => {
    if (reachability.unreachableFor() !== undefined) throw unreachable;
    // The watched pool reports the outcome to reachability.
    const result = await pool.query<{ version: string }>(query, VERSION_READ_TIMEOUT_MS);
    return String(result.rows[0]?.version ?? 0);
  });
}

/**
 * Shares `read` between callers without ever answering one of them with a
 * read that began before it asked: a caller that finds a read running gets
 * the next one, which starts when the running one ends and is shared by
 * everyone who asked meanwhile.
 */
export function readsStartedAfterAsking<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const current: Promise<T> = read().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };
  const ignore = () => undefined;
  return () => {
    if (!running) return start();
    next ??= running.then(ignore, ignore).then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}

/** Bumps the version in the caller's transaction. */
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
    const written = await write(trx);
    await bumpContentVersion(trx);
    return written;
  });
}
