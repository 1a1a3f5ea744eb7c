import { execFile } from "node:child_process";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupStorage } from "~/server/backup/index.server";
import { BACKED_UP_TABLES } from "~/server/backup/format.server";
import { connect, type Connection } from "~/server/db/db.server";
import { parseConfig } from "~/server/platform/config.server";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from "../support/s3";
import { ApiClient, startServer, TEST_ADMIN, TEST_TOTP_KEY, type TestServer } from "../support/server";
import { mailText, startSmtpServer, type TestSmtpServer } from "../support/smtp";

/**
 * Off-site backups (ADR 076) against a real S3-compatible server (s3rver)
 * on loopback, with two site processes on one database. BACKUP_TIME_SCALE
 * makes the contract's smallest interval, a minute, 3 s here, so the test
 * watches several periods in seconds; the object's name then carries
 * seconds too. In order: one object per period however many processes run,
 * retention of the newest BACKUP_KEEP and of nothing else, the CLI's
 * restore of a stored object into an empty database, "Back up now", and a
 * storage that stops answering: the failure in /healthz and one e-mail.
 */

const CLI = path.resolve(import.meta.dirname, "../../build/server/cli.js");
const PERIOD_MS = 3000;
const PREFIX = "sites/ojai";
const KEEP = 2;
const BACKUP_NAME = /^sites\/ojai\/site-backup-\d{4}-\d{2}-\d{2}T\d{6}Z\.tar$/;

let s3: TestS3Server;
let smtp: TestSmtpServer;
let first: TestServer;
let second: TestServer;
let source: Connection;
let env: Record<string, string>;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  [s3, smtp] = await Promise.all([startS3Server(), startSmtpServer()]);
  env = {
    BACKUP_STORAGE_URL: s3.storageUrl(PREFIX),
    BACKUP_INTERVAL_MINUTES: "1",
    BACKUP_TIME_SCALE: String(PERIOD_MS / 60_000),
    BACKUP_KEEP: String(KEEP),
    OUTBOUND_ALLOW_PRIVATE: "true",
    JOB_DELAY_SCALE: "0.001",
    SMTP_URL: smtp.url,
    CONTACT_EMAIL: "owner@ojai.example",
    TOTP_ENCRYPTION_KEY: TEST_TOTP_KEY,
  };
  first = await startServer(env);
  second = await startServer({ ...env, DATABASE_URL: first.databaseUrl });
  source = connect(
    TEST_BACKEND === "postgres"
      ? { kind: "postgres", url: first.databaseUrl }
      : { kind: "sqlite", file: first.databaseUrl },
  );
}, 60_000);

afterAll(async () => {
  await source?.db.destroy();
  await second?.stop();
  await first?.stop();
  for (const cleanup of cleanups) await cleanup();
  await Promise.all([s3?.stop(), smtp?.stop()]);
});

/** The storage as the site sees it, read from the same URL. */
const storage = () =>
  backupStorage(parseConfig({ BACKUP_STORAGE_URL: env.BACKUP_STORAGE_URL, OUTBOUND_ALLOW_PRIVATE: "true" }))!;
const created = () =>
  s3.events.filter((event) => event.name.startsWith("ObjectCreated") && BACKUP_NAME.test(event.key));
/** The period's start a key names (its seconds), in ms. */
const periodOf = (key: string) => {
  const [, date, hh, mm, ss] = /(\d{4}-\d{2}-\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(key)!;
  return Date.parse(`${date}T${hh}:${mm}:${ss}Z`);
};
const health = async (server: TestServer) =>
  (await (await fetch(`${server.url}/healthz`)).json()) as {
    status: string;
    backup: { lastAt: string | null; size: number | null; result: string | null };
  };
/** The CLI, run without blocking this process: s3rver answers from here. */
const cli = (databaseUrl: string, ...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { encoding: "utf8", env: { PATH: process.env.PATH, LOG_LEVEL: "silent", ...env, DATABASE_URL: databaseUrl } },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

async function rowCounts(connection: Connection): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of BACKED_UP_TABLES) {
    const { n } = await connection.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(n);
  }
  return counts;
}

describe("off-site backups", () => {
  it("two processes make one object per period; the newest BACKUP_KEEP stay, nothing else is touched", async () => {
    // What retention must leave alone: another file under the prefix, and a backup's name outside it.
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${s3.port}`,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    const foreign = [
      `${PREFIX}/notes.txt`,
      `${PREFIX}/old/site-backup-2020-01-01T000000Z.tar`,
      "site-backup-2020-01-01T0000Z.tar",
    ];
    for (const key of foreign)
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: "keep me" }));
    client.destroy();

    await expect
      .poll(() => new Set(created().map((event) => event.key)).size, { timeout: 25_000, interval: 200 })
      .toBeGreaterThanOrEqual(4);
    const keys = created().map((event) => event.key);
    // Each period's object written once: no second process, no retry wrote it again.
    expect(new Set(keys).size).toBe(keys.length);
    // In period order: two processes may finish neighbouring periods' uploads either way round.
    const periods = keys.map(periodOf).sort((a, b) => a - b);
    for (const period of periods) expect(period % PERIOD_MS).toBe(0);
    for (let i = 1; i < periods.length; i++) expect(periods[i]! - periods[i - 1]!).toBe(PERIOD_MS);

    await expect
      .poll(async () => (await storage().list()).map((backup) => backup.key), { timeout: 10_000, interval: 200 })
      .toEqual(
        created()
          .map((event) => event.key)
          .sort()
          .slice(-KEEP)
          .reverse(),
      );
    const removed = s3.events.filter((event) => event.name.startsWith("ObjectRemoved")).map((event) => event.key);
    for (const key of foreign) expect(removed).not.toContain(key);
    expect(removed.every((key) => BACKUP_NAME.test(key))).toBe(true);

    const status = await health(first);
    expect(status.status).toBe("ok");
    expect(status.backup.result).toBe("ok");
    expect(status.backup.size).toBeGreaterThan(1000);
  }, 45_000);

  it("restores the newest stored object with the CLI into an empty database, row for row", async () => {
    const target = await createTestDatabase();
    cleanups.push(target.drop);
    const listed = await cli(target.url, "backups");
    expect(listed.status, listed.stderr).toBe(0);
    // Both processes go on backing up every period: a new object can be listed
    // before the oldest is pruned, so the count is at least KEEP (retention is
    // the test above's). Each line is one of the site's backups, and the total
    // says how many lines there are.
    const keys = listed.stdout
      .split("\n")
      .filter((line) => line.startsWith(`${PREFIX}/`))
      .map((line) => line.split(" ")[0]!);
    expect(keys.length).toBeGreaterThanOrEqual(KEEP);
    const made = created().map((event) => event.key);
    for (const key of keys) expect(made).toContain(key);
    expect(listed.stdout).toContain(`${keys.length} backup(s) in`);
    const restored = await cli(target.url, "restore", "--from-storage", "latest");
    expect(restored.status, restored.stderr).toBe(0);
    const copy = connect(
      TEST_BACKEND === "postgres" ? { kind: "postgres", url: target.url } : { kind: "sqlite", file: target.url },
    );
    try {
      const counts = await rowCounts(copy);
      expect(counts).toEqual(await rowCounts(source));
      expect(counts.admin_users).toBe(1);
    } finally {
      await copy.db.destroy();
    }
    // A key that is not one of the site's backups is refused, not fetched.
    const refused = await cli(target.url, "restore", "--from-storage", `${PREFIX}/notes.txt`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("not one of this site's backups");
    // Three CLI processes, each loading the server's build, and a new database:
    // 7-13 s in a suite run, past 30 s with a second suite running beside it.
  }, 60_000);

  it("POST /api/admin/backups/run: 400 without the password, 403 wrong, 202 once per click burst", async () => {
    const admin = new ApiClient(first.url);
    await admin.signIn();
    expect((await admin.post("/api/admin/backups/run", {})).status).toBe(400);
    expect((await admin.post("/api/admin/backups/run", { password: "not the password" })).status).toBe(403);
    const started = await admin.post("/api/admin/backups/run", { password: TEST_ADMIN.password });
    expect(started.status).toBe(202);
    const again = await fetch(`${first.url}/api/admin/backups/run`, {
      method: "POST",
      headers: { Cookie: admin.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: TEST_ADMIN.password }),
    });
    expect(again.status).toBe(202);
    const [a, b] = [
      started.json as { id: string; created: boolean },
      (await again.json()) as { id: string; created: boolean },
    ];
    // Same minute: the second click gets the first's job (unless the minute turned between them).
    if (new Date().getUTCSeconds() > 1) expect([a.created, b.created, b.id]).toEqual([true, false, a.id]);
    const audit = (await admin.get("/api/admin/audit?action=backup-run")).json as Array<{ action: string }>;
    expect(audit.length).toBe(2);
  });

  it("a storage that stops answering: the failure in /healthz, and one e-mail for the streak", async () => {
    await s3.stop();
    await expect
      .poll(async () => (await health(second)).backup.result, { timeout: 15_000, interval: 200 })
      .toBe("failed");
    await expect.poll(() => smtp.mails.length, { timeout: 15_000, interval: 200 }).toBe(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(["owner@ojai.example"]);
    expect(mailText(mail.raw)).toContain("Off-site backup failed");
    expect(mail.raw).not.toContain(S3RVER_CREDENTIALS.secretAccessKey);
    // Two more periods fail, each job through its retries: still one e-mail.
    await new Promise((resolve) => setTimeout(resolve, 2.5 * PERIOD_MS));
    expect(smtp.mails.length).toBe(1);
    expect((await health(first)).status).toBe("ok");
    for (const server of [first, second])
      expect(JSON.stringify(server.logs)).not.toContain(`:${S3RVER_CREDENTIALS.secretAccessKey}@`);
  }, 40_000);
});
