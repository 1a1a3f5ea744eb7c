import { dropPostgresDatabase, TEST_BACKEND } from "../support/backend";

/** Drops the PostgreSQL database the e2e server ran on (tests/support/e2e-server.mjs). */
export default async function globalTeardown() {
  const name = process.env.E2E_PG_DATABASE;
  if (TEST_BACKEND !== "postgres" || !name) return;
  await dropPostgresDatabase(name);
}
