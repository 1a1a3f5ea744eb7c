import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3199);
// A new database file for every run: the suite starts from a known state.
// SQLite: a file in a new directory. PostgreSQL (TEST_DATABASE=postgres): a
// database named per port, recreated by tests/support/e2e-server.mjs and
// dropped by tests/e2e/global-teardown.ts.
const databaseFile = path.join(os.tmpdir(), `ojai-e2e-${Date.now()}`, "site.db");
process.env.E2E_PG_DATABASE ??= `ojai_e2e_${PORT}`;

export const E2E_ADMIN = { email: "e2e-admin@example.com", password: "e2e-password-123" };

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON ?? ".tmp/playwright-results.json" }]],
  globalTeardown: "./tests/e2e/global-teardown.ts",
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } },
    { name: "phone", use: { ...devices["Pixel 7"] } },
  ],
  webServer: {
    command: "node tests/support/e2e-server.mjs",
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SITE_URL: `http://127.0.0.1:${PORT}`,
      DATABASE_URL: databaseFile,
      TEST_DATABASE: process.env.TEST_DATABASE ?? "sqlite",
      E2E_PG_DATABASE: process.env.E2E_PG_DATABASE,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SEED_SAMPLE_POSTS: "true",
      LOG_LEVEL: "warn",
    },
  },
});
