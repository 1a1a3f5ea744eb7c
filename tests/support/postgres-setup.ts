// The global setup of the PostgreSQL projects, in Vitest and in Playwright
// (vitest.config.ts, playwright.config.ts): the server at TEST_POSTGRES_URL
// when it is set (an error when it does not answer, never a silent skip),
// else the default one when it answers, else a private cluster that goes
// when the run ends, however it ends (scripts/lib/private-postgres.mjs,
// ADR 049). The workers start after this and inherit TEST_POSTGRES_URL.
//
// It also migrates one template database for the run, which the workers
// inherit as TEST_POSTGRES_TEMPLATE: a test server's or a test's database is
// a copy of it (CREATE DATABASE ... TEMPLATE, tests/support/backend.ts), a
// third of the time migrating a new one takes (ADR 066).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { connect, migrateToLatest } from "~/server/db/db.server";
import { DEFAULT_TEST_POSTGRES_URL, postgresForTests } from "../../scripts/lib/private-postgres.mjs";

/** Runs one statement on the server's administrative database. */
async function administer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new database migrated to the latest schema; answers its name. Nothing stays connected to it. */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = `ojai_t_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  await administer(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const connection = connect({ kind: "postgres", url: url.toString() });
  try {
    await migrateToLatest(connection.db);
  } finally {
    await connection.db.destroy();
  }
  return name;
}

export default async function setup(): Promise<() => Promise<void>> {
  const found = await postgresForTests({ explicit: process.env.TEST_POSTGRES_URL, reapAfter: process.pid });
  if (found.cluster) {
    console.log(`No PostgreSQL answers at ${DEFAULT_TEST_POSTGRES_URL}: this run has its own,`);
    console.log(`on port ${found.cluster.port} (${found.cluster.dir}); it goes when the run ends.`);
  }
  process.env.TEST_POSTGRES_URL = found.url;
  const template = await migratedTemplate(found.url).catch((error: unknown) => {
    found.cluster?.destroy();
    throw error;
  });
  process.env.TEST_POSTGRES_TEMPLATE = template;
  return async () => {
    await administer(found.url, `drop database if exists "${template}" with (force)`).catch(() => {});
    found.cluster?.destroy();
  };
}
