// The site a Playwright worker tests against: the built server on a new
// database of the backend under test, with the sample posts and the e2e
// administrator, on a port of its own. One per worker (tests/e2e/fixtures.ts),
// so workers can run side by side without sharing state.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase } from "./backend";
import { TEST_TOTP_KEY } from "./server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENTRY = path.join(ROOT, "build/server/index.js");

/** The administrator every e2e site starts with. */
export const E2E_ADMIN = { email: "e2e-admin@example.com", password: "e2e-password-123" };

/** The first worker's port; worker slot N listens on E2E_PORT + N. */
const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3199);

export interface Site {
  url: string;
  /** The site's DATABASE_URL, for a test that puts rows straight into it. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/** Starts the site for worker slot `slot` on `backend` and resolves once /healthz answers. */
export async function startSite(slot: number, backend: "sqlite" | "postgres"): Promise<Site> {
  if (!fs.existsSync(ENTRY)) throw new Error("build/server/index.js is missing: run npm run build first");
  const port = E2E_BASE_PORT + slot;
  const url = `http://127.0.0.1:${port}`;
  const database = await createTestDatabase(backend, { migrated: true });
  const child = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: url,
      DATABASE_URL: database.url,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SEED_SAMPLE_POSTS: "true",
      LOG_LEVEL: "warn",
      // Playwright's request client keeps idle connections without a time
      // limit and does not resend a GET on one the server has just closed, so
      // a request sent as the server's 5 s idle limit ends failed with
      // ECONNRESET. Longer than any test, no connection idles out mid-test.
      KEEP_ALIVE_SECONDS: "300",
      // Every test signs in: scrypt at the test cost (ADR 058).
      PASSWORD_HASH_COST: "test",
      // With PostgreSQL the two-factor key must be given (ADR 047), as an operator does.
      ...(backend === "postgres" ? { TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      // A second signal (once the first is handled: two pending ones are one)
      // ends idle connections at once: no test sends more.
      await Promise.race([exited, sleep(200)]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000)]);
      child.kill("SIGKILL");
    }
    await database.drop();
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url, databaseUrl: database.url, stop };
    await sleep(100);
  }
  await stop();
  throw new Error(`the e2e site on port ${port} did not start (is the port taken?)`);
}
