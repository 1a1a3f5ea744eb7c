import { sql } from "kysely";
import { getConfig } from "../platform/config.server";
import { connect, type Connection, type Db } from "./db.server";
import { createListener, type Listener } from "./listener.server";
import { isUnreachableError } from "./reachability.server";
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
 * Resolves once the database answers: at once on SQLite, a file beside the
 * process. A process that starts while PostgreSQL is away waits for it
 * instead of exiting (ADR 094): the reachability probe (ADR 075) tries a
 * connection every second, and `waiting` is called once, at the first
 * failure. An error that is not about reaching the server (a wrong
 * password, a database that does not exist) rejects at once: that is a
 * setting to correct, not an outage to wait out. The probe's timer does
 * not hold the process open: the caller does (server/main.ts listens).
 */
export async function whenDatabaseAnswers(waiting: () => void): Promise<void> {
  const connection = getConnection();
  if (connection.kind !== "postgres") return;
  let told = false;
  for (;;) {
    try {
      await sql`select 1`.execute(connection.db);
      return;
    } catch (error) {
      if (!isUnreachableError(error)) throw error;
      // The pool reports it too, but not while it is full; reporting it twice changes nothing.
      connection.reachability.failed(error);
    }
    if (!told) waiting();
    told = true;
    await connection.reachability.answered();
  }
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
