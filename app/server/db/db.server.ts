import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import type { DatabaseTarget } from "../config.server";
import { migrations } from "./migrations.server";
import type { Database } from "./schema.server";

export type Db = Kysely<Database>;

/** A connected database: the Kysely handle plus the raw client some libraries need. */
export type Connection =
  | { kind: "sqlite"; db: Db; sqlite: SqliteDatabase.Database }
  | { kind: "postgres"; db: Db; pool: pg.Pool };

export function connect(target: DatabaseTarget): Connection {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    return { kind: "postgres", pool, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }) };
  }
  fs.mkdirSync(path.dirname(target.file), { recursive: true });
  const sqlite = new SqliteDatabase(target.file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return {
    kind: "sqlite",
    sqlite,
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Migrations are numbered per feature branch ("002_images", "003_contact_messages"):
    // a database that already ran 003 must still accept 002 when it lands.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
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
