import { defineConfig, devices } from "@playwright/test";
import { testBrowser } from "./scripts/lib/test-browser.mjs";

// Each worker starts its own site on a new database (tests/support/e2e-site.ts,
// through the \`site\` fixture in tests/e2e/fixtures.ts), so files run side by
// side. E2E_WORKERS sets how many. The default is three on the project's
// 2-core machines (ADR 083): two left a fifth of the cores idle while
// tests waited on a page's timers, and the headless shell (ADR 082) left
// room for a third.
export { E2E_ADMIN } from "./tests/support/e2e-site";

const desktop = { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } };

/**
 * The backend the browser tests run on: TEST_BACKENDS's first (SQLite when
 * npm test runs both), else TEST_DATABASE's. Every behaviour whose outcome
 * can differ with the database is checked on each backend by the Vitest
 * tests of the same server, over HTTP; the browser adds what the pages do
 * with those answers, which is the same on any backend (ADR 080).
 * `TEST_DATABASE=postgres npx playwright test` runs them all on PostgreSQL.
 */
const backend = ((process.env.TEST_BACKENDS ?? process.env.TEST_DATABASE ?? "sqlite").split(",")[0]?.trim() ||
  "sqlite") as "sqlite" | "postgres";
// The servers a test starts itself (tests/support/server.ts) follow
// TEST_DATABASE: set here, in the runner and in each worker, they run on the
// same backend as the worker's site.
process.env.TEST_DATABASE = backend;

export default defineConfig<object, { backend: "sqlite" | "postgres" }>({
  testDir: "tests/e2e",
  // The PostgreSQL to run on, found or started once for the run (ADR 049).
  globalSetup: backend === "postgres" ? "./tests/support/postgres-setup.ts" : undefined,
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON ?? ".tmp/playwright-results.json" }]],
  // A guard against a test that hangs, not a measure of speed: the same
  // machine type runs the browser two to three times slower on some days.
  timeout: 60_000,
  use: {
    // No trace by default: recording one for every test (to keep it for the
    // few that fail) took 12 % of the browser phase's CPU. A failure keeps
    // its screenshot; run the test again with `--trace on` for its trace.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium, its headless shell where installed (ADR 082).
      executablePath: testBrowser(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "desktop", use: { ...desktop, backend } },
    // Tests tagged @desktop (DESKTOP in tests/e2e/fixtures.ts) check what no
    // screen size changes: they run on the desktop alone.
    { name: "phone", grepInvert: /@desktop/, use: { ...devices["Pixel 7"], backend } },
  ],
});
