import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RestoreResult } from "~/lib/backup";
import { BACKED_UP_TABLES } from "~/server/backup/format.server";
import { connect, type Connection } from "~/server/db/db.server";
import { resolveDatabase } from "~/server/platform/config.server";
import pg from "pg";
import { TEST_BACKEND } from "../support/backend";
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from "../support/s3";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * Restore from the admin (ADR 078) on the built server: a backup made by
 * POST /api/admin/backup of a seeded site, uploaded back after a change,
 * undoes the change row for row and signs everybody out; a wrong password
 * and a damaged file are refused and change nothing; a second restore while
 * one is under way is a 409; no temporary file is left behind. A stored
 * backup (s3rver on loopback, as off-site storage) is listed and restored
 * by its key. The site's own writes beside a restore wait for it rather than
 * fail (ADR 092).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The data folder of a PostgreSQL server (STATE_DIRECTORY); a SQLite one writes beside its database. */
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-restore-"));

let server: TestServer;
let admin: ApiClient;
let db: Connection;
let dataDir: string;
let backup: Buffer;
let s3: TestS3Server;
const STORED_KEY = "site/site-backup-2026-11-29T0930Z.tar";

beforeAll(async () => {
  s3 = await startS3Server();
  server = await startServer({
    SEED_SAMPLE_POSTS: "true",
    STATE_DIRECTORY: stateDir,
    BACKUP_STORAGE_URL: s3.storageUrl("site"),
    OUTBOUND_ALLOW_PRIVATE: "true",
  });
  const target = resolveDatabase(server.databaseUrl, ROOT);
  dataDir = target.kind === "sqlite" ? path.dirname(target.file) : stateDir;
  db = connect(target);
  admin = new ApiClient(server.url);
  await admin.signIn();
  const made = await fetch(`${server.url}/api/admin/backup`, {
    method: "POST",
    headers: { Cookie: admin.cookie, "Content-Type": "application/json" },
    body: JSON.stringify({ password: TEST_ADMIN.password }),
  });
  expect(made.status).toBe(200);
  backup = Buffer.from(await made.arrayBuffer());
});
afterAll(async () => {
  await db?.db.destroy();
  await server?.stop();
  await s3?.stop();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

/** Rows per backed-up table (the audit log apart: a restore adds its own entry). */
async function counts(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of BACKED_UP_TABLES) {
    if (table === "audit_log") continue;
    const row = await db.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  return result;
}

/** The restore's temporary files and lock file in the data folder. */
const leftovers = () => fs.readdirSync(dataDir).filter((name) => name.startsWith("restore"));

/** POSTs the multipart form the Settings screen sends: the password, then the file. */
async function restore(file: Buffer, password = TEST_ADMIN.password) {
  const form = new FormData();
  form.append("password", password);
  form.append("file", new Blob([new Uint8Array(file)]), "site-backup.tar");
  const response = await fetch(`${server.url}/api/admin/backups/restore`, {
    method: "POST",
    body: form,
    headers: { Cookie: admin.cookie },
  });
  return { status: response.status, json: (await response.json()) as RestoreResult & { error?: string } };
}

describe("POST /api/admin/backups/restore (an uploaded backup)", () => {
  it("refuses a missing password 400, a wrong one 403, a damaged file 400: nothing changes, nothing is left", async () => {
    const before = await counts();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(backup)]), "site-backup.tar");
    const missing = await fetch(`${server.url}/api/admin/backups/restore`, {
      method: "POST",
      body: form,
      headers: { Cookie: admin.cookie },
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/password/);

    const wrong = await restore(backup, "not-the-password");
    expect(wrong.status).toBe(403);
    expect(wrong.json.error).toBe("The password is not correct");

    // One byte of the last post's rows changed: its SHA-256 no longer matches (found only at the end).
    const damaged = Buffer.from(backup);
    const at = damaged.lastIndexOf(Buffer.from('"slug":"'));
    damaged[at + 9] = damaged[at + 9]! ^ 1;
    const refused = await restore(damaged);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/damaged/);

    expect(await counts()).toEqual(before);
    expect((await admin.get("/api/auth/me")).status).toBe(200);
    expect(leftovers()).toEqual([]);
  });

  it("refuses a second restore (409) while one is receiving its file, and lets the next one in after", async () => {
    const boundary = "restore-test-boundary";
    const first = http.request(`${server.url}/api/admin/backups/restore`, {
      method: "POST",
      headers: { Cookie: admin.cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    const answered = new Promise<number>((resolve) => {
      first.on("response", (response) => resolve(response.statusCode ?? 0));
      first.on("error", () => resolve(0));
    });
    first.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${TEST_ADMIN.password}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.tar"\r\n` +
        `Content-Type: application/x-tar\r\n\r\n`,
    );
    first.write(backup.subarray(0, 4096));
    // Its file exists once the lock is held.
    for (let i = 0; i < 200 && !leftovers().some((name) => name.endsWith(".partial")); i++) await sleep(25);
    expect(leftovers().some((name) => name.endsWith(".partial"))).toBe(true);

    const second = await restore(backup);
    expect(second.status).toBe(409);
    expect(second.json.error).toMatch(/already running/);

    first.destroy();
    await answered;
    for (let i = 0; i < 200 && leftovers().length > 0; i++) await sleep(25);
    expect(leftovers()).toEqual([]);
  });

  it("restores a backup made by POST /api/admin/backup: a change is undone, rows equal, everybody signed out", async () => {
    const before = await counts();
    const created = await admin.post("/api/admin/posts", {
      title: "Written after the backup",
      slug: "after-the-backup",
      excerpt: "An excerpt",
      content: "Some **markdown**",
      category: "News",
      published: true,
      publishDate: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(created.status).toBe(201);
    expect((await counts()).posts).toBe(before.posts! + 1);

    const restored = await restore(backup);
    expect(restored.status, JSON.stringify(restored.json)).toBe(200);
    expect(restored.json.rows.posts).toBe(before.posts);
    expect(restored.json.notices).toEqual(expect.any(Array));
    expect(Date.parse(restored.json.createdAt)).toBeLessThanOrEqual(Date.now());

    expect(await counts()).toEqual(before);
    expect((await fetch(`${server.url}/blog/after-the-backup`)).status).toBe(404);
    // Sessions are not in a backup: this administrator was signed out too.
    expect((await admin.get("/api/auth/me")).status).toBe(401);
    expect(leftovers()).toEqual([]);

    await admin.signIn();
    const audit = await admin.get("/api/admin/audit?action=backup-restored");
    expect(audit.json).toMatchObject([
      { action: "backup-restored", email: TEST_ADMIN.email, target: "site-backup.tar" },
    ]);
  });
});

describe("a stored backup (off-site storage)", () => {
  it("is listed by GET /api/admin/backups and restored by its key; an unknown key is a 404", async () => {
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${s3.port}`,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: STORED_KEY, Body: backup }));
    client.destroy();

    const listed = await admin.get("/api/admin/backups?limit=10");
    expect(listed.status, listed.text).toBe(200);
    expect(Number(listed.headers.get("x-total-count"))).toBeGreaterThanOrEqual(1);
    expect(listed.json).toContainEqual({ key: STORED_KEY, size: backup.length, lastModified: expect.any(String) });

    const before = await counts();
    await admin.post("/api/admin/posts", {
      title: "Also written after the backup",
      slug: "also-after-the-backup",
      excerpt: "An excerpt",
      content: "Text",
      category: "News",
      published: false,
      publishDate: new Date().toISOString(),
    });
    const unknown = await admin.post("/api/admin/backups/restore", {
      key: "site/site-backup-2020-01-01T0000Z.tar",
      password: TEST_ADMIN.password,
    });
    expect(unknown.status, unknown.text).toBe(404);
    expect(leftovers()).toEqual([]);

    const restored = await admin.post("/api/admin/backups/restore", { key: STORED_KEY, password: TEST_ADMIN.password });
    expect(restored.status, restored.text).toBe(200);
    expect(await counts()).toEqual(before);
    expect(leftovers()).toEqual([]);
  });
});

describe("the site's own writes during a restore", () => {
  it("wait for it and then go on: none fails with a locked database", async () => {
    await admin.signIn();
    let done = false;
    const restoring = restore(backup).finally(() => (done = true));
    // Drafts written beside the restore, three at a time, until it answers: one written
    // before it is replaced by it (201), one sent after it is signed out by it (401).
    const statuses: number[] = [];
    const writer = async (n: number) => {
      for (let i = 0; !done; i++) {
        const draft = await admin.post("/api/admin/posts", {
          title: `Beside the restore ${n}-${i}`,
          slug: `beside-the-restore-${n}-${i}`,
          excerpt: "An excerpt",
          content: "Text",
          category: "News",
          published: false,
          publishDate: new Date().toISOString(),
        });
        statuses.push(draft.status);
      }
    };
    await Promise.all([writer(1), writer(2), writer(3)]);
    const restored = await restoring;
    expect(restored.status, JSON.stringify(restored.json)).toBe(200);
    expect(statuses.filter((status) => status !== 201 && status !== 401)).toEqual([]);
    expect(server.logs.filter((line) => JSON.stringify(line.err ?? "").includes("database is locked"))).toEqual([]);
  });

  // On SQLite the restore and the site share one connection: they take turns, and nothing holds a table.
  it.runIf(TEST_BACKEND === "postgres")(
    "that never pause for 10 s leave it a 409 to try again, and nothing changed",
    async () => {
      await admin.signIn();
      const before = await counts();
      // A transaction that holds posts as a write does, until the restore has given up.
      const writer = new pg.Client({ connectionString: server.databaseUrl });
      await writer.connect();
      try {
        await writer.query("begin");
        await writer.query("lock table posts in row exclusive mode");
        const started = Date.now();
        const refused = await restore(backup);
        expect(refused.status, JSON.stringify(refused.json)).toBe(409);
        expect(refused.json.error).toMatch(/kept writing for 10 s.*try it again/);
        expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
      } finally {
        await writer.query("rollback").catch(() => {});
        await writer.end();
      }
      expect(await counts()).toEqual(before);
      // Not signed out: nothing was restored.
      expect((await admin.get("/api/auth/me")).status).toBe(200);
      expect(leftovers()).toEqual([]);
    },
    30_000,
  );
});
