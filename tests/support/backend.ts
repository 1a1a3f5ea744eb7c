import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// Vitest's `once` project sets TEST_DATABASE=none (vitest.config.ts): a test
// file there that reaches the database under test is misnamed.
if (process.env.TEST_DATABASE === "none") {
  throw new Error("this test file reaches the database under test: name it *.db.test.ts (docs/testing.md)");
}
// Read by tests/support/reaches-backend.ts, once the file's tests are done.
(globalThis as { reachedTestBackend?: boolean }).reachedTestBackend = true;

/**
 * Which database the tests run against: `*.db.test.ts` files run once per
 * backend (vitest.config.ts), with TEST_DATABASE=sqlite (the default) or postgres.
 */
export const TEST_BACKEND: "sqlite" | "postgres" = process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

/** A PostgreSQL connection allowed to create databases (trust auth on this machine). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * Creates a new PostgreSQL database for one test server or suite: empty, or
 * with `migrated`, a copy of the run's migrated template when the global
 * setup made one (TEST_POSTGRES_TEMPLATE, tests/support/postgres-setup.ts).
 * Copying it takes a third of the time migrating does. Tests of migrating
 * itself, or of processes migrating side by side, ask for an empty one.
 */
export async function createPostgresDatabase({ migrated = false } = {}): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const name = `ojai_t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const template = migrated ? process.env.TEST_POSTGRES_TEMPLATE : undefined;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    // A commit need not wait for the disk: the tests stop and kill the site's
    // processes, never the database server, so nothing they check changes,
    // and commit-heavy files ran 2-5 times faster on a server with fsync on.
    await admin.query(`alter database "${name}" set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => dropPostgresDatabase(name),
  };
}

/**
 * A new database of the backend under test, as a DATABASE_URL: a file in a
 * new directory (SQLite) or a new PostgreSQL database, empty unless
 * `migrated` (see createPostgresDatabase; a SQLite file migrates in
 * milliseconds, so it stays empty). `drop` removes it.
 */
export async function createTestDatabase(
  backend: "sqlite" | "postgres" = TEST_BACKEND,
  { migrated = false } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (backend === "postgres") return createPostgresDatabase({ migrated });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-db-"));
  const drop = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
  };
  return { url: path.join(dir, "site.db"), drop };
}

/** Drops a test database, sessions and all. */
async function dropPostgresDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
