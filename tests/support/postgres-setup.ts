// The global setup of the PostgreSQL projects, in Vitest and in Playwright
// (vitest.config.ts, playwright.config.ts): the server at TEST_POSTGRES_URL
// when it is set (an error when it does not answer, never a silent skip),
// else the default one when it answers, else a private cluster that goes
// when the run ends, however it ends (scripts/lib/private-postgres.mjs,
// ADR 049). The workers start after this and inherit TEST_POSTGRES_URL.
import { DEFAULT_TEST_POSTGRES_URL, postgresForTests } from "../../scripts/lib/private-postgres.mjs";

export default async function setup(): Promise<() => void> {
  const found = await postgresForTests({ explicit: process.env.TEST_POSTGRES_URL, reapAfter: process.pid });
  if (found.cluster) {
    console.log(`No PostgreSQL answers at ${DEFAULT_TEST_POSTGRES_URL}: this run has its own,`);
    console.log(`on port ${found.cluster.port} (${found.cluster.dir}); it goes when the run ends.`);
  }
  process.env.TEST_POSTGRES_URL = found.url;
  return () => found.cluster?.destroy();
}
