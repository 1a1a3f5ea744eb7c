import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect, migrateToLatest, type Connection, type Db } from "~/server/db/db.server";
import { createPostgresDatabase, TEST_BACKEND } from "./backend";

export interface FreshDatabase {
  connection: Connection;
  /** The DATABASE_URL of this database (a file path or a postgres:// URL). */
  url: string;
  cleanup: () => Promise<void>;
}

/** A real, migrated SQLite database in a new file, removed afterwards. */
export async function freshSqlite(): Promise<FreshDatabase & { file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-db-"));
  const file = path.join(dir, "test.db");
  const connection = connect({ kind: "sqlite", file });
  await migrateToLatest(connection.db);
  return {
    connection,
    file,
    url: file,
    cleanup: async () => {
      await connection.db.destroy().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A real, migrated, new PostgreSQL database, dropped afterwards. */
export async function freshPostgres(): Promise<FreshDatabase> {
  const created = await createPostgresDatabase({ migrated: true });
  const connection = connect({ kind: "postgres", url: created.url });
  await migrateToLatest(connection.db);
  return {
    connection,
    url: created.url,
    cleanup: async () => {
      await connection.db.destroy().catch(() => {});
      await created.drop();
    },
  };
}

/** A fresh database of the backend under test (TEST_DATABASE). */
export function freshDatabase(): Promise<FreshDatabase> {
  return TEST_BACKEND === "postgres" ? freshPostgres() : freshSqlite();
}

/** A second connection to the same database: what another app process has. The caller destroys it. */
export function anotherConnection(database: FreshDatabase): Connection {
  return connect(
    database.url.startsWith("postgres")
      ? { kind: "postgres", url: database.url }
      : { kind: "sqlite", file: database.url },
  );
}

/**
 * Ends the leases of every running job, as the clock would once a killed
 * process's leases ran out (tens of seconds for the longer kinds). That
 * a lease runs out, and that the job then runs again elsewhere, is
 * tests/integration/jobs-processes.db.test.ts's; a test of what a killed
 * process leaves behind need not wait for it.
 */
export async function endRunningLeases(db: Db): Promise<number> {
  const ended = await db
    .updateTable("jobs")
    .set({ lease_until: new Date(0).toISOString() })
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(ended.numUpdatedRows);
}
