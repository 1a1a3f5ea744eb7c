import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Connection } from "~/server/db/db.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { TEST_BACKEND } from "../support/backend";
import { freshDatabase, freshSqlite } from "../support/database";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * Webhooks in backups (ADR 068): the secret travels only sealed; a restore
 * keeps a webhook where the target's key opens its secret, and leaves it
 * out by name where it does not (as ADR 047 does for two-factor secrets);
 * the delivery log stays behind.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "build/server/cli.js");
const KEY = Buffer.alloc(32, 5).toString("base64");
const OTHER_KEY = Buffer.alloc(32, 6).toString("base64");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-webhooks-backup-"));
const backupFile = path.join(dir, "site.tar");
const URL_KEPT = "http://127.0.0.1:9/hooks";

const cli = (key: string, databaseUrl: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", TOTP_ENCRYPTION_KEY: key },
  });

let server: TestServer;
let source: Connection;
let secret: string;

beforeAll(async () => {
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: "true", TOTP_ENCRYPTION_KEY: KEY });
  const owner = new ApiClient(server.url);
  await owner.signIn();
  const created = await owner.post("/api/admin/webhooks", {
    url: URL_KEPT,
    events: ["contact.received"],
    password: TEST_ADMIN.password,
  });
  expect(created.status).toBe(201);
  secret = created.json.secret as string;
  // A failed test delivery: a row of the log, which a backup leaves out.
  expect((await owner.post(`/api/admin/webhooks/${created.json.id}/test`, {})).status).toBe(200);
  source = connect(resolveDatabase(server.databaseUrl, ROOT));
  const written = cli(KEY, server.databaseUrl, "backup", backupFile);
  expect(written.stderr).toBe("");
  expect(written.status).toBe(0);
});
afterAll(async () => {
  await source?.db.destroy();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`webhooks in a backup (${TEST_BACKEND})`, () => {
  it("the file holds the secret only sealed, and no delivery", () => {
    const bytes = fs.readFileSync(backupFile, "latin1");
    expect(bytes).toContain(URL_KEPT);
    expect(bytes).not.toContain(secret.slice("whsec_".length));
    expect(bytes).toMatch(/"secret":"aes-256-gcm:/);
    expect(bytes).not.toContain("webhook.test");
  });

  it("a restore with the same key keeps the webhook as it was", async () => {
    const target = await freshDatabase();
    try {
      const restored = cli(KEY, target.url, "restore", backupFile);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      expect(restored.stdout).not.toContain("was left out");
      const before = await source.db.selectFrom("webhooks").selectAll().execute();
      expect(await target.connection.db.selectFrom("webhooks").selectAll().execute()).toEqual(before);
      expect(await target.connection.db.selectFrom("webhook_deliveries").selectAll().execute()).toEqual([]);
    } finally {
      await target.cleanup();
    }
  });

  it("a restore with another key leaves the webhook out and names it", async () => {
    const target = await freshSqlite();
    try {
      const restored = cli(OTHER_KEY, target.url, "restore", backupFile);
      expect(restored.status).toBe(0);
      expect(restored.stdout).toContain(`The webhook to "${URL_KEPT}" was left out`);
      expect(await target.connection.db.selectFrom("webhooks").selectAll().execute()).toEqual([]);
      // The rest of the site came back.
      expect(await target.connection.db.selectFrom("admin_users").select("email").execute()).toEqual([
        { email: TEST_ADMIN.email },
      ]);
    } finally {
      await target.cleanup();
    }
  });
});
