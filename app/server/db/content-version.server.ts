import type { Transaction } from "kysely";
import type { Connection, Db } from "./db.server";
import type { Listener } from "./listener.server";
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
/** The channel migration 035's trigger announces each new version on. */
const CHANNEL = "content_version";

/**
 * The current version: a reader shared by everything in this process that
 * asks (the page cache, the redirects, the kept public lists). On the page
 * cache's hot path, once per public request.
 *
 * - SQLite (one machine): a statement prepared once; reading it costs less
 *   than keeping it in step would.
 * - PostgreSQL: once `listenForContentVersions` has the process's LISTEN
 *   connection, the version it last heard, with no query at all (ADR 075);
 *   while that connection is being made again, a named prepared statement
 *   per read; and while the database cannot be reached, an immediate
 *   refusal (the page cache then answers what it has, stale).
 */
export function contentVersionReader(connection: Connection): () => Promise<string> {
  return sourceOf(connection).read;
}

/**
 * Keeps this process's version in step with every other's through `listener`
 * (PostgreSQL): each change is announced as it commits, and the version is
 * read again whenever the connection is (re)made. An edit in any process is
 * seen here as soon as the announcement arrives.
 */
export function listenForContentVersions(connection: Connection, listener: Listener): () => void {
  const source = sourceOf(connection);
  return listener.subscribe(CHANNEL, {
    notify: (payload) => source.heard(payload),
    listening: async (client) => {
      const result = await client.query<{ version: string }>(READ_VERSION);
      source.heard(String(result.rows[0]?.version ?? 0));
    },
    lost: () => source.forget(),
  });
}

interface VersionSource {
  read: () => Promise<string>;
  /** A version announced or read on the LISTEN connection. */
  heard(version: string): void;
  /** The LISTEN connection is lost: read the version per request until it is back. */
  forget(): void;
}

const sources = new WeakMap<Connection, VersionSource>();
const byDb = new WeakMap<Db, VersionSource>();

function sourceOf(connection: Connection): VersionSource {
  let source = sources.get(connection);
  if (!source) {
    sources.set(connection, (source = versionSource(connection)));
    byDb.set(connection.db, source);
  }
  return source;
}

function versionSource(connection: Connection): VersionSource {
  if (connection.kind === "sqlite") {
    const statement = connection.sqlite.prepare<[], number>(READ_VERSION).pluck();
    // better-sqlite3 reads synchronously; callers await the answer.
    return { read: () => Promise.resolve(String(statement.get() ?? 0)), heard() {}, forget() {} };
  }
  const { pool, reachability } = connection;
  const query = { name: "read_content_version", text: READ_VERSION };
  let known: bigint | undefined;
  const unreachable = new Error("Connection terminated: the database cannot be reached");
  return {
    read: async () => {
      if (known !== undefined) return String(known);
      if (reachability.unreachableFor() !== undefined) throw unreachable;
      try {
        const result = await pool.query<{ version: string }>(query);
        reachability.reached();
        return String(result.rows[0]?.version ?? 0);
      } catch (error) {
        reachability.failed(error);
        throw error;
      }
    },
    // Versions only grow; an announcement may arrive after a read that already saw a newer one.
    heard(version) {
      const heard = BigInt(version);
      if (known === undefined || heard > known) known = heard;
    },
    forget() {
      known = undefined;
    },
  };
}

/** Bumps the version in the caller's transaction; answers the new one, for `contentVersionCommitted`. */
export async function bumpContentVersion(db: Db | Transaction<Database>): Promise<string> {
  const row = await db
    .updateTable("content_version")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("id", "=", 1)
    .returning("version")
    .executeTakeFirst();
  return String(row?.version ?? 0);
}

/**
 * After the transaction that bumped the version to `version` committed:
 * this process knows it at once, so its own next request shows the edit
 * without waiting for the announcement to come back (ADR 075).
 */
export function contentVersionCommitted(db: Db, version: string): void {
  byDb.get(db)?.heard(version);
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
  let version: string | undefined;
  const result = await db.transaction().execute(async (trx) => {
    const written = await write(trx);
    version = await bumpContentVersion(trx);
    return written;
  });
  if (version !== undefined) contentVersionCommitted(db, version);
  return result;
}
