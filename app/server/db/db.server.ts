import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDialectConfig,
} from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import type { DatabaseTarget } from "../platform/config.server";
import { getLogger } from "../platform/logger.server";
import { migrations } from "./migrations.server";
import { connectionProbe, Reachability } from "./reachability.server";
import { watchedPool, type WatchedPool } from "./watched-pool.server";
import type { Database } from "./schema.server";

export type Db = Kysely<Database>;

/** A connected database: the Kysely handle plus the raw client some libraries need. */
export type Connection =
  | { kind: "sqlite"; db: Db; sqlite: SqliteDatabase.Database }
  | { kind: "postgres"; db: Db; pool: WatchedPool; reachability: Reachability };

/**
 * How long the web server's queries may wait for PostgreSQL's answer
 * before the database counts as unreachable (ADR 075): a request either
 * has its answer or a 503 well within 10 s. The command line and the
 * migrations wait as long as their work takes (`queryTimeoutMs: 0`).
 */
const QUERY_TIMEOUT_MS = 7000;
/** A new connection that is not made within this long counts as unreachable too. */
const CONNECT_TIMEOUT_MS = 4000;

export interface ConnectOptions {
  /** Each query's time-out on PostgreSQL (ms); 0 for none. */
  queryTimeoutMs?: number;
}

export function connect(
  target: DatabaseTarget,
  { queryTimeoutMs = QUERY_TIMEOUT_MS }: ConnectOptions = {},
): Connection {
  if (target.kind === "postgres") {
    const clientConfig = {
      connectionString: target.url,
      // A database that does not answer at all (its machine gone, packets
      // dropped) fails a new connection and a query within their time-outs,
      // so requests answer 503 instead of waiting; TCP keep-alive finds
      // connections that died so while idle.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    };
    // Each query's deadline is the watched pool's, not pg's query_timeout:
    // pg decides when its timer fires, before the event loop reads an answer
    // that came while the process was paused (ADR 095).
    const pool = new pg.Pool({ ...clientConfig, max: 10 });
    // A connection PostgreSQL ends (a restart, a failover, an administrator)
    // must not end the process. pg reports it as an 'error' event on the
    // client, and the pool listens only while a client is idle: one that a
    // request holds between two queries (a transaction) would throw it
    // unhandled. So every client gets a listener of its own. The query that
    // used it fails, the pool drops it when it is released, and the next
    // query opens a new connection (ADR 033).
    pool.on("connect", (client) => {
      client.on("error", (error) => getLogger().warn({ err: error }, "database connection lost"));
    });
    // The pool's own report of an idle client's error: the client's listener has logged it.
    pool.on("error", () => {});
    const reachability = new Reachability(connectionProbe(clientConfig, pg.Client));
    const watched = watchedPool(pool, reachability, queryTimeoutMs);
    const dialect = new PostgresDialect({ pool: watched });
    return { kind: "postgres", pool: watched, reachability, db: new Kysely<Database>({ dialect }) };
  }
  prepareSqliteFile(target.file);
  const sqlite = new SqliteDatabase(target.file);
  // Switching to WAL needs an exclusive lock for a moment; another process
  // opening the same new file at the same time can hold it.
  withLockRetry(() => sqlite.pragma("journal_mode = WAL"));
  sqlite.pragma("synchronous = NORMAL");
  // A deleted row's bytes are overwritten with zeros, not left in free pages
  // (the analytics' salt of a past day, a deleted message), so a copy of the
  // file holds only what the tables hold once the delete is checkpointed.
  sqlite.pragma("secure_delete = ON");
  // The -wal keeps the frames of pages as they were before the delete until
  // they are written over: with no size to keep, the first commit after a
  // complete checkpoint (SQLite's own, every 1000 pages) truncates the -wal
  // to what that commit wrote, so those frames go too.
  sqlite.pragma("journal_size_limit = 0");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return {
    kind: "sqlite",
    sqlite,
    db: new Kysely<Database>({ dialect: new AppSqliteDialect({ database: withStatementCache(sqlite) }) }),
  };
}

/** The database file's mode: its owner's alone (SQLite gives -wal and -shm the same). */
const FILE_MODE = 0o600;

/**
 * The folder (0700, when this makes it) and the database file (0600) exist
 * before SQLite opens the file, whoever starts the site and whatever its
 * umask: SQLite would create the file 0644 under the usual umask, and its
 * -wal and -shm take the file's mode. A file an older version left
 * readable by others, or its -wal and -shm, is tightened to 0600 here, and
 * the log says so. An existing folder is left as it is (it may be shared).
 */
function prepareSqliteFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // Made empty with its mode, only if absent (another process may have made it a moment ago).
    fs.closeSync(fs.openSync(file, "wx", FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      const mode = fs.statSync(each).mode & 0o777;
      if ((mode & 0o077) === 0) continue;
      fs.chmodSync(each, FILE_MODE);
      getLogger().info({ file: each, was: mode.toString(8) }, "database file was readable by others: now 0600");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue;
      // Another user's file (EPERM): SQLite will say whether it can be opened at all.
      getLogger().warn({ err: error, file: each }, "could not make the database file its owner's alone");
    }
  }
}

/**
 * The SQLite handle Kysely gets: the same database, but a query's statement is
 * prepared once and kept. Kysely's driver prepares every query it runs, and
 * SQLite's parsing and planning was a twentieth of an uncached page's CPU time
 * (issue 15). A statement that is still being read (a streamed query) is not
 * shared: that query gets one of its own.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig["database"] {
  const statements = new LRUCache<string, SqliteDatabase.Statement>({ max: 256 });
  return {
    close: () => sqlite.close(),
    prepare(query: string) {
      const kept = statements.get(query);
      if (kept && !kept.busy) return kept;
      const statement = sqlite.prepare(query);
      if (!kept) statements.set(query, statement);
      return statement;
    },
  };
}

/**
 * SQLite with two guarantees Kysely's stock dialect lacks, both needed when
 * several processes share one file:
 * - transactions begin IMMEDIATE: a writing transaction takes the write lock
 *   when it starts (waiting up to the busy timeout) instead of failing with
 *   SQLITE_BUSY when it upgrades from reading midway;
 * - migrations run in one such transaction (SQLite's DDL is transactional),
 *   so two processes starting on a new file do not both run migration 001:
 *   the second waits, then finds it done.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
class AppSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** Runs a statement that needs a lock SQLite's busy handler does not wait for, retrying briefly. */
function withLockRetry<T>(run: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return run();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 50 || (code !== "SQLITE_BUSY" && code !== "SQLITE_LOCKED")) throw error;
      Atomics.wait(pause, 0, 0, 100);
    }
  }
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Migrations are numbered per feature branch ("002_images", "003_contact_messages"):
    // a database that already ran 003 must still accept 002 when it lands.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error("the migration failed", { cause: error });
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** True when the database answers a query that reads one of our tables. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1 from posts limit 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** Unique-constraint violation, in either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}
