import pg from "pg";
import { POSTGRES_ADMIN_URL, TEST_BACKEND } from "../support/backend";

/** Drops the PostgreSQL database the e2e server ran on (tests/support/e2e-server.mjs). */
export default async function globalTeardown() {
  const name = process.env.E2E_PG_DATABASE;
  if (TEST_BACKEND !== "postgres" || !name) return;
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
