import { getConfig } from "../platform/config.server";
import { connect, type Connection, type Db } from "./db.server";
import { createListener, type Listener } from "./listener.server";
import { closeSqliteReaderOf } from "./sqlite-reader.server";

let current: Connection | undefined;
let listener: Listener | undefined;
let noQueryTimeout = false;

/** This process's database connection, opened on first use. */
export function getConnection(): Connection {
  current ??= connect(getConfig().database, noQueryTimeout ? { queryTimeoutMs: 0 } : {});
  return current;
}

/**
 * The command line's connection has no query time-out: it waits as long as
 * its work (a restore, a copy, an import) takes. Called before first use.
 */
export function waitForSlowQueries(): void {
  noQueryTimeout = true;
}

export function getDb(): Db {
  return getConnection().db;
}

/**
 * The process's LISTEN connection on PostgreSQL (undefined on SQLite), made
 * once by whoever serves requests or runs jobs (server/main.ts): the jobs'
 * workers are woken by its announcements (ADR 067, ADR 075).
 */
export function startListening(): Listener | undefined {
  const connection = getConnection();
  if (connection.kind !== "postgres" || listener) return listener;
  const database = getConfig().database;
  if (database.kind !== "postgres") return undefined;
  listener = createListener(database.url);
  return listener;
}

export async function closeConnection(): Promise<void> {
  const connection = current;
  current = undefined;
  const listening = listener;
  listener = undefined;
  await listening?.close();
  if (connection?.kind === "sqlite") await closeSqliteReaderOf(connection.sqlite);
  if (connection) await connection.db.destroy();
}
