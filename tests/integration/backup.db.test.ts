import { sql } from "kysely";
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Secret, TOTP } from "otpauth";
import sharp from "sharp";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BACKED_UP_TABLES,
  BackupError,
  LEFT_OUT_TABLES,
  MANIFEST,
  REBUILT_TABLES,
} from "~/server/backup/format.server";
import { readBackupFile, restoreBackup } from "~/server/backup/read.server";
import { POSTGRES_INDEX_TABLES, SKIPPED_TABLES, SQLITE_INDEX_TABLES } from "~/server/backup/copy-database.server";
import { connect, type Connection } from "~/server/db/db.server";
import { KEY_FILE_NAME } from "~/server/identity/two-factor-key.server";
import { TEST_BACKEND } from "../support/backend";
import { freshPostgres, freshSqlite, type FreshDatabase } from "../support/database";
import { ApiClient, AS_NPM_START, startServer, TEST_ADMIN, TEST_TOTP_KEY, type TestServer } from "../support/server";
import { daysAgo } from "../support/days";

/**
 * Issue 16, backup and restore (docs/product/contract.md#backups, ADR 034): one file holds the
 * whole site; it restores into either backend in one transaction, row for
 * row and byte for byte; a truncated, damaged or foreign file is refused
 * and changes nothing.
 */

const CLI = path.resolve(import.meta.dirname, "../../build/server/cli.js");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-backup-"));
/**
 * The CLI as the operator runs it beside the site: with the site's two-factor
 * key (ADR 047), so that 2FA comes along; `withoutKey` runs it as on a site
 * without that key (SQLite: the target then makes a key file of its own).
 */
const cliWith = (env: Record<string, string | undefined>, databaseUrl: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ...env },
  });
const cli = (databaseUrl: string, ...args: string[]) => cliWith({ TOTP_ENCRYPTION_KEY: siteKey }, databaseUrl, ...args);

/**
 * What a restore of `file` into `target` is refused with, run in this process
 * as the CLI runs it: the whole file checked, then restored without
 * --replace. For the many crafted files whose refusal is the restore's own
 * check of a row: how the CLI reports a refusal (exit code 1, one line on
 * stderr, nothing on stdout) is checked through the CLI itself, for a refused
 * image, a site already there and a file that is not a whole backup.
 */
async function refusal(target: FreshDatabase, file: string): Promise<string> {
  try {
    await readBackupFile(file);
    await restoreBackup(target.connection, file, { totpKey: siteTotpKey() });
  } catch (error) {
    expect(error).toBeInstanceOf(BackupError);
    return (error as BackupError).message;
  }
  throw new Error(`${file} was restored, not refused`);
}

/** The site's two-factor key as the CLI reads it from TOTP_ENCRYPTION_KEY, for a restore run in this process. */
const siteTotpKey = () => ({ key: Buffer.from(siteKey, "base64"), source: "TOTP_ENCRYPTION_KEY" as const });

const SNAPSHOT_KEYS: Record<string, string[]> = {
  image_variants: ["image_id", "format", "width"],
  image_references: ["post_id", "image_id"],
  page_image_references: ["page", "image_id"],
  site_content: ["name"],
  analytics_days: ["day"],
  analytics_counts: ["day", "dimension", "key"],
};

/** Every backed-up row of a database, and the rows a restore rebuilds, in key order, bytes included. */
async function snapshot(connection: Connection) {
  const rows: Record<string, unknown[]> = {};
  for (const table of [...BACKED_UP_TABLES, ...REBUILT_TABLES]) {
    const keys = SNAPSHOT_KEYS[table] ?? ["id"];
    let query = connection.db.selectFrom(table).selectAll();
    for (const key of keys) query = query.orderBy(key as never);
    rows[table] = await query.execute();
  }
  return rows;
}

/** A subscriber's columns as the newsletter writes them, to be completed with an id and an address. */
const SUBSCRIBER = {
  status: "pending" as const,
  consent: "form" as const,
  created_at: daysAgo(2),
  confirm_sent_at: daysAgo(2),
  confirmed_at: daysAgo(1.9),
  unsubscribed_at: null,
};

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const imageDigests = (rows: Record<string, unknown[]>) =>
  [...rows.images!, ...rows.image_variants!].map((row) => sha256((row as { bytes: Uint8Array }).bytes));

const fresh = (backend: "sqlite" | "postgres"): Promise<FreshDatabase> =>
  backend === "postgres" ? freshPostgres() : freshSqlite();
/**
 * Where a backup of the backend under test is restored: SQLite, so that the
 * PostgreSQL pass goes PostgreSQL -> SQLite -> PostgreSQL (both directions
 * across backends) and the SQLite pass needs no PostgreSQL (docs/testing.md#what-it-needs: a
 * developer without it runs TEST_BACKENDS=sqlite).
 */
const other = "sqlite";

let server: TestServer;
let admin: ApiClient;
let source: Connection;
let original: Record<string, unknown[]>;
const backupFile = path.join(dir, "site.tar");
let recoveryCodes: string[];
let totpSecret: string;
/**
 * The source site's two-factor key, as an operator carries it to another
 * database: on SQLite the one line of the key file the site made beside its
 * database (no key is configured), on PostgreSQL its TOTP_ENCRYPTION_KEY.
 */
let siteKey: string;

/** POST /api/admin/backup with `fields` as JSON (default) or as the Settings screen's form sends them. */
const download = (
  fields: Record<string, string> | undefined,
  { form = false, cookie = admin.cookie, headers = {} } = {},
) =>
  fetch(`${server.url}/api/admin/backup`, {
    method: "POST",
    headers: {
      ...(cookie ? { Cookie: cookie } : {}),
      ...(fields === undefined
        ? {}
        : { "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json" }),
      ...headers,
    },
    body: fields === undefined ? undefined : form ? new URLSearchParams(fields) : JSON.stringify(fields),
  });

beforeAll(async () => {
  server = await startServer({ SEED_SAMPLE_POSTS: "true", CONTACT_EMAIL: "hello@ojai.example" });
  siteKey =
    TEST_BACKEND === "sqlite"
      ? fs.readFileSync(path.join(path.dirname(server.databaseUrl), KEY_FILE_NAME), "utf8").trim()
      : TEST_TOTP_KEY;
  admin = new ApiClient(server.url);
  await admin.signIn();
  // Two images (one JPEG, one PNG with transparency), a draft that uses one, a message, saved settings.
  const jpeg = await sharp({ create: { width: 1400, height: 700, channels: 3, background: "#3366aa" } })
    .jpeg()
    .toBuffer();
  const png = await sharp({ create: { width: 500, height: 500, channels: 4, background: "#00000000" } })
    .png()
    .toBuffer();
  const image = await admin.uploadPng(jpeg);
  await admin.uploadPng(png);
  expect(
    (
      await admin.post("/api/admin/posts", {
        title: "Kept in the backup",
        slug: "kept-in-the-backup",
        excerpt: "A draft with an image, accents (é, ß, 日本) and an emoji 🎉",
        content: "Some **markdown**, a [link](https://example.com) and `code`.",
        category: "Operations",
        readTime: "2 min read",
        published: false,
        publishDate: "2026-03-01T09:30:00.000Z",
        headerImage: image.url,
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await new ApiClient(server.url).post("/api/contact", {
        name: "Grace Hopper",
        email: "grace@example.com",
        phone: "805 555 0199",
        preferredContact: "email",
        service: "systems",
        message: "Line one\nLine two, with a tab\tand quotes \"'",
        elapsedMs: 10_000,
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await admin.put("/api/admin/settings", {
        contactPhone: "+1 (805) 555-0142",
        socialUrls: { linkedin: "https://www.linkedin.com/company/ojai-tech" },
        notifyEmail: "leads@ojai.example",
      })
    ).status,
  ).toBe(200);
  // A redirect (ADR 054): backed up, and checked on restore.
  expect(
    (await admin.post("/api/admin/redirects", { from: "/old-address", to: "https://example.org/new" })).status,
  ).toBe(201);
  // A page's content published once (ADR 053): the document and two versions travel.
  const aboutPage = (await admin.get("/api/admin/content/about")).json as {
    team: { members: Array<{ name: string }> };
  };
  aboutPage.team.members[0]!.name = "Ana Ruiz, kept in the backup";
  expect((await admin.put("/api/admin/content/about", aboutPage)).status).toBe(200);
  // Two-factor sign-in on (ADR 037): the secret, the last used step and the
  // recovery codes' hashes are columns of admin_users and travel with it.
  const { secret } = (await admin.post("/api/auth/2fa/setup", { password: TEST_ADMIN.password })).json as {
    secret: string;
  };
  totpSecret = secret;
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  const enabled = await admin.post("/api/auth/2fa/enable", { code: totp.generate() });
  expect(enabled.status).toBe(200);
  recoveryCodes = (enabled.json as { recoveryCodes: string[] }).recoveryCodes;
  source = connect(
    server.databaseUrl.startsWith("postgres")
      ? { kind: "postgres", url: server.databaseUrl }
      : { kind: "sqlite", file: server.databaseUrl },
  );
  // The message as a lead (ADR 070): its status, note and follow-up day, a reply (as its job leaves it once sent:
  // sending needs a mail server) and a saved reply travel.
  const [message] = (await admin.get("/api/admin/messages")).json as Array<{ id: string }>;
  const lead = await admin.request("PATCH", `/api/admin/messages/${message!.id}`, {
    status: "won",
    note: "Signed for the systems audit",
    followUpAt: "2026-12-01",
  });
  expect(lead.status, lead.text).toBe(200);
  await source.db
    .insertInto("message_replies")
    .values({
      id: crypto.randomUUID(),
      message_id: message!.id,
      body: "Thank you, Grace: we will call on Monday.",
      status: "sent",
      attempts: 1,
      last_error: null,
      idempotency_key: "backup-test",
      created_at: new Date().toISOString(),
      sent_at: new Date().toISOString(),
    })
    .execute();
  const saved = await admin.post("/api/admin/saved-replies", { name: "Pricing", body: "Our rates are on the site." });
  expect(saved.status, saved.text).toBe(201);
  // The hours for calls and a call booked (ADR 071): both travel; the call is also a lead.
  const hours = await admin.put("/api/admin/booking", {
    enabled: true,
    timeZone: "Europe/Berlin",
    slotMinutes: 45,
    minNoticeHours: 0,
    horizonDays: 14,
    weekly: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: "00:00", end: "23:45" })),
    daysOff: ["2030-12-25"],
  });
  expect(hours.status, hours.text).toBe(200);
  const { slots } = (await admin.get(`/api/booking/slots`)).json as { slots: Array<{ start: string }> };
  const booked = await new ApiClient(server.url).post("/api/booking", {
    start: slots.at(-1)!.start,
    name: "Grace Hopper",
    email: "grace@example.com",
    message: "A call about the audit",
  });
  expect(booked.status, booked.text).toBe(201);
  // The newsletter (ADR 072): the list, one of each status and consent, travels; so do a post's wish to be
  // e-mailed and the record of its mailing, which keeps a restored site from e-mailing it twice.
  await source.db
    .insertInto("subscribers")
    .values([
      { ...SUBSCRIBER, id: crypto.randomUUID(), email: "ada@example.com", status: "confirmed", created_at: daysAgo(3) },
      { ...SUBSCRIBER, id: crypto.randomUUID(), email: "grace+news@example.com", confirmed_at: null },
      {
        ...SUBSCRIBER,
        id: crypto.randomUUID(),
        email: "linus@example.org",
        status: "unsubscribed",
        consent: "import",
        confirm_sent_at: null,
        unsubscribed_at: daysAgo(1),
      },
    ])
    .execute();
  const mailed = await source.db
    .selectFrom("posts")
    .select("id")
    .where("published", "=", 1)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  await source.db.updateTable("posts").set({ email_subscribers: 1 }).where("id", "=", mailed.id).execute();
  await source.db
    .insertInto("newsletter_mailings")
    .values({
      id: crypto.randomUUID(),
      post_id: mailed.id,
      status: "done",
      recipients: 1,
      sent: 1,
      failed: 0,
      created_at: daysAgo(0.5),
      finished_at: daysAgo(0.5),
    })
    .execute();
  // A view from a newsletter (ADR 056): the day's numbers travel, written within a few seconds.
  const viewed = await fetch(`${server.url}/about?utm_source=newsletter`, {
    headers: { accept: "text/html", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" },
  });
  expect(viewed.status).toBe(200);
  await viewed.text();
  for (let i = 0; i < 100; i++) {
    const counted = await source.db
      .selectFrom("analytics_counts")
      .select("key")
      .where("key", "=", "newsletter")
      .execute();
    if (counted.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  original = await snapshot(source);
  expect(original.analytics_counts!.length).toBeGreaterThan(0);
  // The draft's header image: the one reference a restore must rebuild (ADR 036).
  expect(original.image_references).toHaveLength(1);
}, 60_000);

afterAll(async () => {
  await source?.db.destroy();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A backup's text holds the administrator's 2FA secret only encrypted, and no recovery code or its plain SHA-256. */
function expectNoUsableTwoFactorSecret(text: string) {
  expect(text).not.toContain(totpSecret);
  expect(text).not.toContain("plain:");
  const field = '"totp_secret":"';
  const at = text.indexOf(field);
  expect(at).toBeGreaterThan(0);
  expect(text.slice(at + field.length, text.indexOf('"', at + field.length))).toMatch(
    /^aes-256-gcm:[^:]+:[^:]+:[^:]+$/,
  );
  expect(text.indexOf(field, at + 1)).toBe(-1);
  for (const code of recoveryCodes) {
    const normalised = code.replace(/-/g, "");
    expect(text).not.toContain(normalised);
    expect(text).not.toContain(createHash("sha256").update(normalised).digest("hex"));
  }
}

describe("the backup's table list", () => {
  it("names every table of the schema: backed up, deliberately left out, rebuilt by a restore, or SQLite's title index", async () => {
    const tables = (await source.db.introspection.getTables()).map((t) => t.name).sort();
    const indexTables = TEST_BACKEND === "sqlite" ? SQLITE_INDEX_TABLES : POSTGRES_INDEX_TABLES;
    expect(tables).toEqual([...BACKED_UP_TABLES, ...LEFT_OUT_TABLES, ...REBUILT_TABLES, ...indexTables].sort());
    // copy-database's lists agree on what is short-lived state.
    for (const table of SKIPPED_TABLES) expect(LEFT_OUT_TABLES).toContain(table);
  });

  it("docs/backup-format.md names every column of every table a backup holds", async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/backup-format.md"), "utf8");
    const tables = await source.db.introspection.getTables();
    for (const table of BACKED_UP_TABLES) {
      const row = doc.split("\n").find((line) => line.startsWith(`| \`${table}\``));
      expect(row, table).toBeDefined();
      const columns = tables.find((t) => t.name === table)!.columns.map((column) => column.name);
      for (const column of columns.filter((name) => name !== "bytes"))
        expect(row, `${table}.${column}`).toContain(`\`${column}\``);
    }
  });
});

describe(`npm run admin -- backup and restore (${TEST_BACKEND})`, () => {
  it("writes one file that tar, sha256sum and jq can read", () => {
    const result = cli(server.databaseUrl, "backup", backupFile);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("images: 2 rows");
    expect(result.stdout).toMatch(/Backup written to .*site\.tar/);
    const listing = spawnSync("tar", ["tf", backupFile], { encoding: "utf8" }).stdout.split("\n");
    expect(listing[0]).toBe(MANIFEST);
    expect(listing).toContain("ojai-backup/SHA256SUMS");
    expect(listing.filter((name) => /\.(?:jpg|png)$/.test(name))).toHaveLength(2);
    const unpacked = path.join(dir, "unpacked");
    fs.mkdirSync(unpacked);
    expect(spawnSync("tar", ["xf", backupFile, "-C", unpacked]).status).toBe(0);
    const check = spawnSync("sha256sum", ["-c", "--quiet", "SHA256SUMS"], {
      cwd: path.join(unpacked, "ojai-backup"),
      encoding: "utf8",
    });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.status).toBe(0);
    // No session is in it; the password hash is.
    const text = fs.readFileSync(backupFile, "latin1");
    expect(text).not.toContain('"expires_at"');
    expect(text).toContain("scrypt");
    // Readable by its owner alone, from its creation (ADR 047), whatever the umask.
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    expectNoUsableTwoFactorSecret(text);
  });

  it("never holds a two-factor secret in a form usable without the key, even one an older process stored as it was", async () => {
    // A rolling upgrade: a process of the older version wrote the secret as it was after this one started.
    const [row] = original.admin_users as Array<{ id: string; totp_secret: string }>;
    await source.db
      .updateTable("admin_users")
      .set({ totp_secret: `plain:${totpSecret}` })
      .where("id", "=", row!.id)
      .execute();
    const file = path.join(dir, "from-plain.tar");
    try {
      // The tests before ran the CLI synchronously, holding this process past
      // the server's 5 s keep-alive: a turn of the event loop lets fetch's pool
      // see the idle connection the server closed meanwhile, instead of
      // sending on it. The download comes first, before this test's own CLI run.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const downloaded = await download({ password: TEST_ADMIN.password });
      expect(downloaded.status).toBe(200);
      expectNoUsableTwoFactorSecret(Buffer.from(await downloaded.arrayBuffer()).toString("latin1"));
      expect(cli(server.databaseUrl, "backup", file).status).toBe(0);
      expectNoUsableTwoFactorSecret(fs.readFileSync(file, "latin1"));
    } finally {
      await source.db
        .updateTable("admin_users")
        .set({ totp_secret: row!.totp_secret })
        .where("id", "=", row!.id)
        .execute();
    }
  });

  it(`a round trip through ${other} and back leaves every row and every image byte-identical`, async () => {
    const [there, back] = await Promise.all([fresh(other), fresh(TEST_BACKEND)]);
    try {
      const restored = cli(there.url, "restore", backupFile);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      expect(await snapshot(there.connection)).toEqual(original);

      const second = path.join(dir, `from-${other}.tar`);
      expect(cli(there.url, "backup", second).status).toBe(0);
      const again = cli(back.url, "restore", second);
      expect(again.stderr).toBe("");
      expect(again.status).toBe(0);
      const final = await snapshot(back.connection);
      expect(final).toEqual(original);
      expect(imageDigests(final)).toEqual(imageDigests(original));
      expect(original.images).toHaveLength(2);
      expect(original.posts!.length).toBeGreaterThan(3);
      expect(original.contact_messages).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ status: "won", note: "Signed for the systems audit", follow_up_at: "2026-12-01" }),
          expect.objectContaining({ status: "new", call_status: "booked", message: "A call about the audit" }),
        ]),
      );
      expect(original.bookings).toEqual([expect.objectContaining({ status: "confirmed", name: "Grace Hopper" })]);
      expect(original.booking_settings).toEqual([
        expect.objectContaining({ time_zone: "Europe/Berlin", slot_minutes: 45, days_off: '["2030-12-25"]' }),
      ]);
      expect(original.message_replies).toEqual([
        expect.objectContaining({ body: "Thank you, Grace: we will call on Monday.", status: "sent" }),
      ]);
      expect(original.saved_replies).toEqual([expect.objectContaining({ name: "Pricing" })]);
      expect(original.subscribers).toHaveLength(3);
      expect(original.subscribers).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ email: "ada@example.com", status: "confirmed", consent: "form" }),
          expect.objectContaining({ email: "grace+news@example.com", status: "pending", confirmed_at: null }),
          expect.objectContaining({ email: "linus@example.org", status: "unsubscribed", consent: "import" }),
        ]),
      );
      expect(original.newsletter_mailings).toEqual([expect.objectContaining({ status: "done", sent: 1 })]);
      const emailed = (original.posts as Array<{ id: string; email_subscribers: number }>).filter(
        (post) => post.email_subscribers === 1,
      );
      expect(emailed.map((post) => post.id)).toEqual([
        (original.newsletter_mailings![0] as { post_id: string }).post_id,
      ]);
      expect(original.redirects).toEqual([expect.objectContaining({ from_path: "/old-address", status: 301 })]);
      // ADR 038: the audit log (the sign-in and the post saves above) and the administrators' new columns.
      expect((original.audit_log as Array<{ action: string }>).map((entry) => entry.action)).toEqual(
        expect.arrayContaining(["sign-in", "post-created"]),
      );
      expect(original.admin_users![0]).toHaveProperty("last_sign_in_at");
      expect(original.admin_users![0]).toHaveProperty("name");
    } finally {
      await Promise.all([there.cleanup(), back.cleanup()]);
    }
  }, 60_000);

  it("the restored site runs: the same administrator signs in, the draft, image and settings are there", async () => {
    const target = await fresh(other);
    let restoredSite: TestServer | undefined;
    try {
      expect(cli(target.url, "restore", backupFile).status).toBe(0);
      // The search index (ADR 042) holds every restored post, written by its triggers.
      if (target.connection.kind === "sqlite") {
        await sql`insert into posts_search (posts_search) values ('integrity-check')`.execute(target.connection.db);
      }
      const indexed = await sql<{ posts: number | string; indexed: number | string }>`
        select (select count(*) from posts) as posts, (select count(*) from ${sql.table(
          target.connection.kind === "sqlite" ? "posts_search_docsize" : "posts_search",
        )}) as indexed`.execute(target.connection.db);
      expect(Number(indexed.rows[0]!.indexed)).toBe(Number(indexed.rows[0]!.posts));
      expect(Number(indexed.rows[0]!.posts)).toBeGreaterThan(0);
      await target.connection.db.destroy();
      restoredSite = await startServer({
        DATABASE_URL: target.url,
        ADMIN_EMAIL: undefined,
        ADMIN_PASSWORD: undefined,
        COMPANY_NAME: "Ignored Because Saved",
        TOTP_ENCRYPTION_KEY: siteKey,
      });
      const client = new ApiClient(restoredSite.url);
      // Two-factor sign-in came along: the password alone is not enough; a recovery code is.
      const passwordOnly = await client.post("/api/auth/login", TEST_ADMIN);
      expect(passwordOnly.status).toBe(401);
      expect(passwordOnly.json.twoFactorRequired).toBe(true);
      expect((await client.post("/api/auth/login", { ...TEST_ADMIN, code: recoveryCodes[0] })).status).toBe(200);
      const settings = (await client.get("/api/admin/settings")).json;
      expect(settings).toMatchObject({ contactPhone: "+1 (805) 555-0142", companyName: "Ojai Technology Services" });
      const about = await (await fetch(`${restoredSite.url}/about`)).text();
      expect(about).toContain("+1 (805) 555-0142");
      expect(about).toContain("Ana Ruiz, kept in the backup");
      const versions = (await client.get("/api/admin/content/about/revisions")).json.revisions;
      expect(versions.map((v: { version: number }) => v.version)).toEqual([1, 0]);
      const drafts = (await client.get("/api/admin/posts?q=kept")).json as Array<{ headerImage: string }>;
      expect(drafts).toHaveLength(1);
      const image = await fetch(restoredSite.url + drafts[0]!.headerImage);
      expect(image.status).toBe(200);
    } finally {
      await restoredSite?.stop();
      await target.cleanup();
    }
  }, 60_000);

  it("refuses a database that already holds a site, unless --replace; --replace signs everybody out", async () => {
    const target = await fresh(TEST_BACKEND);
    try {
      expect(cli(target.url, "restore", backupFile).status).toBe(0);
      const before = await snapshot(target.connection);
      const refused = cli(target.url, "restore", backupFile);
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toMatch(/already has data in admin_users.*--replace/);
      expect(await snapshot(target.connection)).toEqual(before);

      await target.connection.db
        .insertInto("sessions")
        .values({
          id: "a".repeat(64),
          user_id: (before.admin_users![0] as { id: string }).id,
          created_at: new Date().toISOString(),
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          last_seen_at: null,
        })
        .execute();
      const replaced = cli(target.url, "restore", backupFile, "--replace");
      expect(replaced.stderr).toBe("");
      expect(replaced.status).toBe(0);
      expect(await snapshot(target.connection)).toEqual(original);
      expect(await target.connection.db.selectFrom("sessions").selectAll().execute()).toEqual([]);
    } finally {
      await target.cleanup();
    }
  }, 60_000);
});

describe("two-factor sign-in restored on a site without the key it was encrypted with (ADR 047)", () => {
  it("is turned off for that administrator, with a notice: the password alone signs in, the rest is restored", async () => {
    const target = await fresh(TEST_BACKEND);
    let restoredSite: TestServer | undefined;
    try {
      // The target's own key: SQLite makes a key file beside its database; PostgreSQL gets another variable.
      const otherKey = {
        TOTP_ENCRYPTION_KEY: TEST_BACKEND === "postgres" ? randomBytes(32).toString("base64") : undefined,
      };
      const restored = cliWith(otherKey, target.url, "restore", backupFile);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      expect(restored.stdout).toContain(
        `Two-factor sign-in of ${TEST_ADMIN.email} was turned off: its secret was encrypted with another key than this site's`,
      );
      if (TEST_BACKEND === "sqlite") {
        expect(restored.stdout).toContain(KEY_FILE_NAME);
        expect(fs.statSync(path.join(path.dirname(target.url), KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
      }
      const [user] = await target.connection.db.selectFrom("admin_users").selectAll().execute();
      expect(user).toMatchObject({ totp_secret: null, totp_enabled_at: null, recovery_codes: null });
      expect(await target.connection.db.selectFrom("posts").select("id").execute()).toHaveLength(
        original.posts!.length,
      );
      await target.connection.db.destroy();
      restoredSite = await startServer({
        DATABASE_URL: target.url,
        ADMIN_EMAIL: undefined,
        ADMIN_PASSWORD: undefined,
        ...otherKey,
      });
      expect((await new ApiClient(restoredSite.url).post("/api/auth/login", TEST_ADMIN)).status).toBe(200);
    } finally {
      await restoredSite?.stop();
      await target.cleanup();
    }
  }, 60_000);
});

/**
 * A copy of `source` with its entries changed by `edit` (each entry's name and
 * bytes in, the entries to write instead out) and SHA256SUMS made again: what
 * someone crafting a backup would do.
 */
async function rewriteBackup(
  source: string,
  target: string,
  edit: (name: string, bytes: Buffer) => Array<[string, Buffer]>,
): Promise<void> {
  const extract = tar.extract();
  const pack = tar.pack();
  const sums: string[] = [];
  const add = (name: string, bytes: Buffer) =>
    new Promise<void>((resolve, reject) => pack.entry({ name }, bytes, (error) => (error ? reject(error) : resolve())));
  const copied = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
      const name = entry.header.name;
      if (name.endsWith("/SHA256SUMS")) {
        await add(name, Buffer.from(`${sums.join("\n")}\n`));
        continue;
      }
      for (const [newName, bytes] of edit(name, Buffer.concat(chunks))) {
        sums.push(`${sha256(bytes)}  ${newName.slice(newName.indexOf("/") + 1)}`);
        await add(newName, bytes);
      }
    }
    pack.finalize();
  })();
  await Promise.all([
    pipeline(fs.createReadStream(source), extract),
    copied,
    pipeline(pack, fs.createWriteStream(target)),
  ]);
}

/** A JSON-lines entry with `change` applied to each row. */
const editRows = (bytes: Buffer, change: (row: Record<string, unknown>) => Record<string, unknown>) =>
  Buffer.from(
    bytes
      .toString("utf8")
      .split("\n")
      .map((line) => (line ? JSON.stringify(change(JSON.parse(line) as Record<string, unknown>)) : line))
      .join("\n"),
  );

describe("a crafted backup is refused or neutralised (ADR 047)", () => {
  const MARKER = "craftedBySomeoneElse";

  it("a post's stored HTML is not trusted: it is rendered again from its markdown, and the page runs no script of the file's", async () => {
    const published = (original.posts as Array<{ slug: string; published: number; content_html: string }>).find(
      (post) => post.published === 1,
    )!;
    const crafted = path.join(dir, "crafted-html.tar");
    await rewriteBackup(backupFile, crafted, (name, bytes) => [
      [
        name,
        name.includes("/data/posts-")
          ? editRows(bytes, (row) =>
              row.slug === published.slug
                ? {
                    ...row,
                    content_html: `<p>Hello</p><script>window.${MARKER}=1</script><img src=x onerror=${MARKER}()>`,
                  }
                : row,
            )
          : bytes,
      ],
    ]);
    expect(fs.readFileSync(crafted, "latin1")).toContain(`<script>window.${MARKER}=1</script>`);
    const target = await fresh(TEST_BACKEND);
    let restoredSite: TestServer | undefined;
    try {
      const restored = cli(target.url, "restore", crafted);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      expect(restored.stdout).toContain("1 post's stored HTML differed from what the markdown renders to now");
      const row = await target.connection.db
        .selectFrom("posts")
        .select("content_html")
        .where("slug", "=", published.slug)
        .executeTakeFirstOrThrow();
      expect(row.content_html).toBe(published.content_html);
      await target.connection.db.destroy();
      restoredSite = await startServer({ DATABASE_URL: target.url, TOTP_ENCRYPTION_KEY: siteKey });
      const page = await fetch(`${restoredSite.url}/blog/${published.slug}`);
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain(MARKER);
    } finally {
      await restoredSite?.stop();
      await target.cleanup();
    }
  }, 60_000);

  describe("images that are not what their rows say are refused, and the target is left as it was", () => {
    let target: FreshDatabase;
    let before: Record<string, unknown[]>;
    beforeAll(async () => {
      target = await fresh(TEST_BACKEND);
      before = await snapshot(target.connection);
    });
    afterAll(() => target?.cleanup());
    const html = Buffer.from(`<!doctype html><script>window.${MARKER}=1</script>`);
    const jpegJson = (name: string) => name.endsWith(".json") && name.includes("/images/");

    it.each([
      [
        "an image whose stored type is text/html",
        (name: string, bytes: Buffer): Array<[string, Buffer]> => {
          if (jpegJson(name) && bytes.includes('"image/jpeg"')) {
            const json = JSON.parse(bytes.toString("utf8")) as { image: { content_type: string }; file: string };
            json.image.content_type = "text/html";
            json.file = json.file.replace(/\.jpg$/, ".bin");
            return [[name, Buffer.from(JSON.stringify(json))]];
          }
          return [
            [name.endsWith(".jpg") ? name.replace(/\.jpg$/, ".bin") : name, name.endsWith(".jpg") ? html : bytes],
          ];
        },
      ],
      [
        "an image whose bytes are not an image",
        (name: string, bytes: Buffer): Array<[string, Buffer]> => [[name, name.endsWith(".png") ? html : bytes]],
      ],
      [
        "a variant whose stored type is text/html",
        (name: string, bytes: Buffer): Array<[string, Buffer]> => [
          [
            name,
            jpegJson(name)
              ? Buffer.from(
                  bytes.toString("utf8").replace('"content_type": "image/webp"', '"content_type": "text/html"'),
                )
              : bytes,
          ],
        ],
      ],
      [
        "a variant whose bytes are HTML",
        (name: string, bytes: Buffer): Array<[string, Buffer]> => [[name, name.endsWith(".webp") ? html : bytes]],
      ],
    ])("%s", async (what, edit) => {
      const crafted = path.join(dir, `crafted-${what.replace(/\W+/g, "-")}.tar`);
      await rewriteBackup(backupFile, crafted, edit);
      expect(fs.readFileSync(crafted, "latin1")).not.toBe(fs.readFileSync(backupFile, "latin1"));
      const result = cli(target.url, "restore", crafted);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(
        /is not an image of the type its row states .*this backup was altered and is refused/,
      );
      expect(await snapshot(target.connection)).toEqual(before);
    });

    it("a footer link that is not an https address", async () => {
      const crafted = path.join(dir, "crafted-settings.tar");
      await rewriteBackup(backupFile, crafted, (name, bytes) => [
        [
          name,
          name.includes("/data/site_settings-")
            ? editRows(bytes, (row) => ({ ...row, facebook_url: "javascript:alert(1)" }))
            : bytes,
        ],
      ]);
      expect(await refusal(target, crafted)).toMatch(/facebook_url that is not an https address/);
      expect(await snapshot(target.connection)).toEqual(before);
    });

    it.each([
      ["contact_messages", { status: "hot" }, /a message the site would never keep/],
      ["contact_messages", { follow_up_at: "next week" }, /a message the site would never keep/],
      ["contact_messages", { source_page: "javascript:alert(1)" }, /a message the site would never keep/],
      ["message_replies", { status: "delivered" }, /a reply the site would never keep/],
      ["bookings", { status: "maybe" }, /a booking the site would never keep/],
      ["bookings", { slot: null }, /a booking the site would never keep/],
      ["booking_settings", { time_zone: "Mars/Olympus_Mons" }, /booking hours the site would never keep/],
      ["booking_settings", { weekly: '[{"day":1,"start":"10:00","end":"09:00"}]' }, /booking hours/],
      ["subscribers", { status: "bounced" }, /a subscriber the site would never keep/],
      ["subscribers", { consent: "bought" }, /a subscriber the site would never keep/],
      ["subscribers", { email: "Ada@Example.com" }, /a subscriber the site would never keep/],
      ["subscribers", { email: `${"a".repeat(310)}@example.com` }, /a subscriber the site would never keep/],
      ["subscribers", { confirmed_at: null }, /a subscriber the site would never keep/],
      ["subscribers", { created_at: "yesterday" }, /a subscriber the site would never keep/],
      ["newsletter_mailings", { status: "queued" }, /a mailing the site would never keep/],
      ["newsletter_mailings", { sent: 5 }, /a mailing the site would never keep/],
      ["newsletter_mailings", { finished_at: null }, /a mailing the site would never keep/],
      [
        "newsletter_mailings",
        { post_id: "6e0f2f6c-1d6a-4c1e-9d7e-2b1f0a9c3d4e" },
        /a mailing of a post it does not hold/,
      ],
    ])("a row of %s the site would never write: %j", async (table, change, message) => {
      const crafted = path.join(dir, `crafted-${table}-${Object.keys(change)[0]}.tar`);
      await rewriteBackup(backupFile, crafted, (name, bytes) => [
        [name, name.includes(`/data/${table}-`) ? editRows(bytes, (row) => ({ ...row, ...change })) : bytes],
      ]);
      expect(await refusal(target, crafted)).toMatch(message);
      expect(await snapshot(target.connection)).toEqual(before);
    });

    it("a page's content the site would never save (a team photo that runs a script)", async () => {
      const crafted = path.join(dir, "crafted-content.tar");
      await rewriteBackup(backupFile, crafted, (name, bytes) => [
        [
          name,
          name.includes("/data/site_content-")
            ? editRows(bytes, (row) => {
                const document = JSON.parse(String(row.document));
                document.team.members[0].photo = { url: "javascript:alert(1)", alt: "x" };
                return { ...row, document: JSON.stringify(document) };
              })
            : bytes,
        ],
      ]);
      expect(await refusal(target, crafted)).toMatch(/a page's content \("?about"?\) that the site would never save/);
      expect(await snapshot(target.connection)).toEqual(before);
    });
  });

  it("a redirect to a javascript: address (ADR 054)", async () => {
    const target = await fresh(TEST_BACKEND);
    try {
      const before = await snapshot(target.connection);
      const crafted = path.join(dir, "crafted-redirect.tar");
      await rewriteBackup(backupFile, crafted, (name, bytes) => [
        [
          name,
          name.includes("/data/redirects-")
            ? editRows(bytes, (row) => ({ ...row, to_target: "javascript:alert(1)", to_path: null }))
            : bytes,
        ],
      ]);
      expect(await refusal(target, crafted)).toMatch(/a redirect the site would never save/);
      expect(await snapshot(target.connection)).toEqual(before);
    } finally {
      await target.cleanup();
    }
  });

  it("an old backup's full client addresses and strangers' e-mails are not brought back (migration 025's rule)", async () => {
    const entries = original.audit_log as Array<{ id: string }>;
    expect(entries.length).toBeGreaterThanOrEqual(3);
    const [stranger, guessed] = [entries[0]!.id, entries[1]!.id];
    const crafted = path.join(dir, "old-addresses.tar");
    // What a version before migration 025 wrote: the address as it came, and the e-mail a failed sign-in tried.
    await rewriteBackup(backupFile, crafted, (name, bytes) => [
      [
        name,
        name.includes("/data/audit_log-")
          ? editRows(bytes, (row) => ({
              ...row,
              client_address: row.id === stranger ? "2001:db8:1:2::9" : "203.0.113.9",
              ...(row.id === stranger ? { action: "sign-in-failed", actor_id: null, actor_email: "who@else.net" } : {}),
              ...(row.id === guessed
                ? { action: "sign-in-failed", actor_id: null, actor_email: "ADMIN@example.com" }
                : {}),
            }))
          : bytes,
      ],
    ]);
    expect(fs.readFileSync(crafted, "latin1")).toContain("203.0.113.9");
    const target = await fresh(TEST_BACKEND);
    try {
      const restored = cli(target.url, "restore", crafted);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      const rows = await target.connection.db.selectFrom("audit_log").selectAll().orderBy("id").execute();
      expect(rows).toHaveLength(entries.length);
      for (const row of rows) {
        expect(row.client_address).toBe(row.id === stranger ? "2001:db8:1::/48" : "203.0.113.0/24");
      }
      expect(rows.find((row) => row.id === stranger)!.actor_email).toBeNull();
      expect(rows.find((row) => row.id === guessed)!.actor_email).toBe(TEST_ADMIN.email);
      const text = JSON.stringify(rows);
      for (const full of ["203.0.113.9", "2001:db8:1:2:", "who@else.net"]) expect(text).not.toContain(full);
    } finally {
      await target.cleanup();
    }
  });

  it("a post's revision of a post the backup does not hold, or with a state the site would never keep (ADR 064)", async () => {
    const target = await fresh(TEST_BACKEND);
    try {
      const before = await snapshot(target.connection);
      const cases: Array<[string, (row: Record<string, unknown>) => Record<string, unknown>, RegExp]> = [
        [
          "orphan",
          (row) => (row.document_kind === "post" ? { ...row, document_id: crypto.randomUUID() } : row),
          /revisions of a post it does not hold/,
        ],
        [
          "state",
          (row) => (row.document_kind === "post" ? { ...row, state: JSON.stringify({ title: 1 }) } : row),
          /a revision the site would never keep/,
        ],
      ];
      for (const [what, change, error] of cases) {
        const crafted = path.join(dir, `crafted-revision-${what}.tar`);
        await rewriteBackup(backupFile, crafted, (name, bytes) => [
          [name, name.includes("/data/document_revisions-") ? editRows(bytes, change) : bytes],
        ]);
        expect(await refusal(target, crafted), what).toMatch(error);
        expect(await snapshot(target.connection)).toEqual(before);
      }
    } finally {
      await target.cleanup();
    }
  });

  it("/images serves only image/webp, whatever a stored row says", async () => {
    const [image] = original.images as Array<{ id: string }>;
    await source.db
      .insertInto("image_variants")
      .values({
        image_id: image!.id,
        width: 777,
        height: 1,
        format: "webp",
        content_type: "text/html",
        byte_size: html().length,
        bytes: html(),
      })
      .execute();
    try {
      const answer = await fetch(`${server.url}/images/${image!.id}-777.webp`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("image/webp");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    } finally {
      await source.db.deleteFrom("image_variants").where("width", "=", 777).execute();
    }
    function html() {
      return Buffer.from("<script>alert(1)</script>");
    }
  });
});

describe("a backup an older version wrote (ADR 064)", () => {
  const OLD_COLUMNS = ["id", "name", "version", "document", "published_at", "published_by"];
  /** What a version before migration 027 wrote: no posts' revisions, the pages' versions as `rows` of their old table. */
  const asOldBackup = (target: string, rows: Array<Record<string, unknown>>) =>
    rewriteBackup(backupFile, target, (name, bytes) => {
      if (name.endsWith("/manifest.json") || name.endsWith("/counts.json")) {
        const json = JSON.parse(bytes.toString("utf8")) as {
          tables?: Record<string, string[]>;
          rows?: Record<string, number>;
        };
        if (json.tables) {
          delete json.tables.document_revisions;
          json.tables.site_content_revisions = OLD_COLUMNS;
        }
        if (json.rows) {
          delete json.rows.document_revisions;
          json.rows.site_content_revisions = rows.length;
        }
        return [[name, Buffer.from(JSON.stringify(json))]];
      }
      if (!name.includes("/data/document_revisions-")) return [[name, bytes]];
      const lines = rows.map((row) => JSON.stringify(row));
      return [[name.replace("document_revisions", "site_content_revisions"), Buffer.from(`${lines.join("\n")}\n`)]];
    });

  it("holds the pages' versions as site_content_revisions: they restore as the pages' revisions", async () => {
    const pageRevisions = (original.document_revisions as Array<Record<string, unknown>>).filter(
      (row) => row.document_kind === "page",
    );
    expect(pageRevisions.map((row) => row.number)).toEqual(expect.arrayContaining([0, 1]));
    expect(original.document_revisions!.length).toBeGreaterThan(pageRevisions.length);
    const old = path.join(dir, "before-027.tar");
    await asOldBackup(
      old,
      pageRevisions.map((row) => ({
        id: row.id,
        name: row.document_id,
        version: row.number,
        document: row.state,
        published_at: row.saved_at,
        published_by: row.saved_by,
      })),
    );
    expect(spawnSync("tar", ["tf", old], { encoding: "utf8" }).stdout).toContain("site_content_revisions-000001.jsonl");
    const target = await fresh(TEST_BACKEND);
    try {
      const restored = cli(target.url, "restore", old);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      const restoredRows = await snapshot(target.connection);
      expect(restoredRows.document_revisions).toEqual(pageRevisions);
      // The rest of the file as it was.
      expect({ ...restoredRows, document_revisions: [] }).toEqual({ ...original, document_revisions: [] });
    } finally {
      await target.cleanup();
    }
  }, 60_000);

  it("an old page version the site would never save is refused as before", async () => {
    const old = path.join(dir, "before-027-crafted.tar");
    await asOldBackup(old, [
      { id: crypto.randomUUID(), name: "nowhere", version: 1, document: "{}", published_at: "x", published_by: null },
    ]);
    const target = await fresh(TEST_BACKEND);
    try {
      expect(await refusal(target, old)).toMatch(/a page's content \("?nowhere"?\) that the site would never save/);
    } finally {
      await target.cleanup();
    }
  });
});

describe("a backup from before the lead desk (migration 030, ADR 070)", () => {
  const LEAD_COLUMNS = [
    "status",
    "note",
    "follow_up_at",
    "source_page",
    "source",
    "campaign",
    "spam_reason",
    "mail_id",
  ];
  const SETTINGS_COLUMNS = ["acknowledge_messages", "acknowledgement_text"];
  const NEW_TABLES = ["message_replies", "saved_replies"];
  const without = (row: Record<string, unknown>, columns: string[]) =>
    Object.fromEntries(Object.entries(row).filter(([column]) => !columns.includes(column)));

  it("restores without replies, saved replies or a lead's columns: every message is new", async () => {
    const old = path.join(dir, "before-030.tar");
    await rewriteBackup(backupFile, old, (name, bytes) => {
      if (NEW_TABLES.some((table) => name.includes(`/data/${table}-`))) return [];
      if (name.endsWith("/manifest.json") || name.endsWith("/counts.json")) {
        const json = JSON.parse(bytes.toString("utf8")) as {
          tables?: Record<string, string[]>;
          rows?: Record<string, number>;
          entries?: number;
        };
        if (json.tables) {
          for (const table of NEW_TABLES) delete json.tables[table];
          json.tables.contact_messages = json.tables.contact_messages!.filter((c) => !LEAD_COLUMNS.includes(c));
          json.tables.site_settings = json.tables.site_settings!.filter((c) => !SETTINGS_COLUMNS.includes(c));
        }
        if (json.rows) for (const table of NEW_TABLES) delete json.rows[table];
        if (json.entries !== undefined) json.entries -= NEW_TABLES.length;
        return [[name, Buffer.from(JSON.stringify(json))]];
      }
      if (name.includes("/data/contact_messages-"))
        return [[name, editRows(bytes, (row) => without(row, LEAD_COLUMNS))]];
      if (name.includes("/data/site_settings-"))
        return [[name, editRows(bytes, (row) => without(row, SETTINGS_COLUMNS))]];
      return [[name, bytes]];
    });
    const target = await fresh(TEST_BACKEND);
    try {
      const restored = cli(target.url, "restore", old);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      const rows = await snapshot(target.connection);
      expect(rows.message_replies).toEqual([]);
      expect(rows.saved_replies).toEqual([]);
      const [message] = rows.contact_messages as Array<Record<string, unknown>>;
      expect(message).toMatchObject({ status: "new", note: null, follow_up_at: null, source: null });
      expect(without(message!, LEAD_COLUMNS)).toEqual(
        without((original.contact_messages as Array<Record<string, unknown>>)[0]!, LEAD_COLUMNS),
      );
      expect(rows.site_settings).toEqual([
        expect.objectContaining({ acknowledge_messages: 0, acknowledgement_text: null }),
      ]);
    } finally {
      await target.cleanup();
    }
  }, 60_000);
});

describe("the newsletter in a backup (ADR 072)", () => {
  const NEW_TABLES = ["subscribers", "newsletter_mailings"];
  const withoutEmailColumn = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).filter(([column]) => column !== "email_subscribers"));

  it("a backup from before migration 032 restores with no subscribers or mailings, and no post to e-mail", async () => {
    const old = path.join(dir, "before-032.tar");
    await rewriteBackup(backupFile, old, (name, bytes) => {
      if (NEW_TABLES.some((table) => name.includes(`/data/${table}-`))) return [];
      if (name.endsWith("/manifest.json") || name.endsWith("/counts.json")) {
        const json = JSON.parse(bytes.toString("utf8")) as {
          tables?: Record<string, string[]>;
          rows?: Record<string, number>;
          entries?: number;
        };
        if (json.tables) {
          for (const table of NEW_TABLES) delete json.tables[table];
          json.tables.posts = json.tables.posts!.filter((column) => column !== "email_subscribers");
        }
        if (json.rows) for (const table of NEW_TABLES) delete json.rows[table];
        if (json.entries !== undefined) json.entries -= NEW_TABLES.length;
        return [[name, Buffer.from(JSON.stringify(json))]];
      }
      if (name.includes("/data/posts-")) return [[name, editRows(bytes, withoutEmailColumn)]];
      return [[name, bytes]];
    });
    const listing = spawnSync("tar", ["tf", old], { encoding: "utf8" }).stdout;
    expect(listing).not.toContain("subscribers");
    expect(fs.readFileSync(old, "latin1")).not.toContain("email_subscribers");
    const target = await fresh(TEST_BACKEND);
    try {
      const restored = cli(target.url, "restore", old);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      const rows = await snapshot(target.connection);
      expect(rows.subscribers).toEqual([]);
      expect(rows.newsletter_mailings).toEqual([]);
      expect((rows.posts as Array<Record<string, unknown>>).map((post) => post.email_subscribers)).toEqual(
        original.posts!.map(() => 0),
      );
      // The rest of the file as it was.
      expect((rows.posts as Array<Record<string, unknown>>).map(withoutEmailColumn)).toEqual(
        (original.posts as Array<Record<string, unknown>>).map(withoutEmailColumn),
      );
      expect({ ...rows, posts: [], subscribers: [], newsletter_mailings: [] }).toEqual({
        ...original,
        posts: [],
        subscribers: [],
        newsletter_mailings: [],
      });
    } finally {
      await target.cleanup();
    }
  }, 60_000);

  it("a mailing still being sent comes back done as it stood, with a notice: a restore e-mails nobody", async () => {
    const crafted = path.join(dir, "mailing-under-way.tar");
    await rewriteBackup(backupFile, crafted, (name, bytes) => [
      [
        name,
        name.includes("/data/newsletter_mailings-")
          ? editRows(bytes, (row) => ({ ...row, status: "sending", recipients: 3, sent: 1, finished_at: null }))
          : bytes,
      ],
    ]);
    const target = await fresh(TEST_BACKEND);
    try {
      const startedAt = new Date().toISOString();
      const restored = cli(target.url, "restore", crafted);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      expect(restored.stdout).toContain(
        "1 mailing was still being sent when the backup was made; restored as finished",
      );
      const [mailing] = await target.connection.db.selectFrom("newsletter_mailings").selectAll().execute();
      expect(mailing).toMatchObject({ status: "done", recipients: 3, sent: 1, failed: 0 });
      expect(mailing!.finished_at! >= startedAt).toBe(true);
      expect(await target.connection.db.selectFrom("newsletter_recipients").selectAll().execute()).toEqual([]);
      // The only work a restore queues is the booked call's reminders (ADR 071).
      const kinds = await target.connection.db.selectFrom("jobs").select("kind").distinct().execute();
      expect(kinds.map((job) => job.kind).filter((kind) => kind !== "booking.mail")).toEqual([]);
    } finally {
      await target.cleanup();
    }
  }, 60_000);

  it("a post scheduled for later gets its publication job again: it is published, and mailed, at its time", async () => {
    const crafted = path.join(dir, "scheduled-post.tar");
    const later = new Date(Date.now() + 3 * 24 * 60 * 60_000).toISOString();
    let scheduledId = "";
    await rewriteBackup(backupFile, crafted, (name, bytes) => [
      [
        name,
        name.includes("/data/posts-")
          ? editRows(bytes, (row) => {
              if (scheduledId && row.id !== scheduledId) return row;
              scheduledId = String(row.id);
              return { ...row, published: 1, publish_date: later };
            })
          : bytes,
      ],
    ]);
    const target = await fresh(TEST_BACKEND);
    try {
      const restored = cli(target.url, "restore", crafted);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      const jobs = await target.connection.db
        .selectFrom("jobs")
        .select(["kind", "payload", "run_at"])
        .where("kind", "=", "post.publish-due")
        .execute();
      expect(jobs).toHaveLength(1);
      expect(JSON.parse(jobs[0]!.payload)).toEqual({ postId: scheduledId, publishDate: later });
      expect(Date.parse(jobs[0]!.run_at)).toBe(Date.parse(later));
    } finally {
      await target.cleanup();
    }
  }, 60_000);

  it("a database whose only rows are subscribers holds a site: refused unless --replace", async () => {
    const target = await fresh(TEST_BACKEND);
    try {
      await target.connection.db
        .insertInto("subscribers")
        .values({ ...SUBSCRIBER, id: crypto.randomUUID(), email: "kept@example.net" })
        .execute();
      const before = await snapshot(target.connection);
      const refused = cli(target.url, "restore", backupFile);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/already has data in subscribers.*--replace/);
      expect(await snapshot(target.connection)).toEqual(before);
      expect(cli(target.url, "restore", backupFile, "--replace").status).toBe(0);
      expect(await snapshot(target.connection)).toEqual(original);
    } finally {
      await target.cleanup();
    }
  }, 60_000);
});

describe("a file that is not a whole backup is refused, and the target is left as it was", () => {
  let target: FreshDatabase;
  let before: Record<string, unknown[]>;
  beforeAll(async () => {
    target = await fresh(TEST_BACKEND);
    // A target with a site in it, so that "unchanged" means something; every restore below says --replace.
    expect(cli(target.url, "restore", backupFile).status).toBe(0);
    await target.connection.db.updateTable("site_settings").set({ company_name: "Before The Restore" }).execute();
    before = await snapshot(target.connection);
  }, 60_000);
  afterAll(() => target?.cleanup());

  const refuse = async (file: string, message: RegExp) => {
    const result = cli(target.url, "restore", file, "--replace");
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await snapshot(target.connection)).toEqual(before);
  };

  it.each([
    ["in the middle of an image", Buffer.from([0xff, 0xd8, 0xff])],
    ["in the middle of the rows", Buffer.from('"slug":')],
  ])("truncated %s", async (_where, marker) => {
    const whole = fs.readFileSync(backupFile);
    const at = whole.indexOf(marker);
    expect(at).toBeGreaterThan(0);
    const cut = path.join(dir, `cut-${at}.tar`);
    fs.writeFileSync(cut, whole.subarray(0, at + 100));
    await refuse(cut, /truncated/);
  });

  it("truncated at an entry's end, before its checksums (what a tar reader alone accepts)", async () => {
    const cut = path.join(dir, "cut-at-entry.tar");
    const extract = tar.extract();
    const pack = tar.pack();
    const copied = (async () => {
      for await (const entry of extract) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
        if (entry.header.name.endsWith("SHA256SUMS")) continue;
        await new Promise<void>((resolve, reject) =>
          pack.entry(entry.header, Buffer.concat(chunks), (error) => (error ? reject(error) : resolve())),
        );
      }
      pack.finalize();
    })();
    await Promise.all([
      pipeline(fs.createReadStream(backupFile), extract),
      copied,
      pipeline(pack, fs.createWriteStream(cut)),
    ]);
    await refuse(cut, /truncated: it ends before its checksums/);
  });

  it("one byte changed in the last image", async () => {
    const whole = fs.readFileSync(backupFile);
    const damaged = Buffer.from(whole);
    // The last image file's bytes sit before the rows; find the PNG's signature and change a byte after it.
    const at = damaged.lastIndexOf(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(at).toBeGreaterThan(0);
    damaged.writeUInt8(damaged.readUInt8(at + 40) ^ 0xff, at + 40);
    const file = path.join(dir, "damaged.tar");
    fs.writeFileSync(file, damaged);
    await refuse(file, /damaged: its SHA-256/);
  });

  it("a damaged file found only at the end of a restore rolls the whole restore back (one transaction)", async () => {
    const whole = fs.readFileSync(backupFile);
    const damaged = Buffer.from(whole);
    const at = damaged.lastIndexOf(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    damaged.writeUInt8(damaged.readUInt8(at + 40) ^ 0xff, at + 40);
    const file = path.join(dir, "damaged-in-transaction.tar");
    fs.writeFileSync(file, damaged);
    // The library call, without the CLI's check of the whole file first: the
    // damage is found after every row was inserted, at SHA256SUMS.
    await expect(
      restoreBackup(target.connection, file, {
        replace: true,
        totpKey: siteTotpKey(),
      }),
    ).rejects.toThrow(/damaged/);
    expect(await snapshot(target.connection)).toEqual(before);
  });

  it("a file that is not a tar, a compressed backup, another tar, a newer format", async () => {
    await refuse(path.resolve(import.meta.dirname, "../../README.md"), /not a backup of this site: it is not a tar/);
    const gz = path.join(dir, "site.tar.gz");
    spawnSync("gzip", ["-k", "-c", backupFile], { stdio: ["ignore", fs.openSync(gz, "w"), "inherit"] });
    await refuse(gz, /compressed \(gzip\): decompress it first/);

    const tarOf = async (file: string, entries: Array<[string, string]>) => {
      const pack = tar.pack();
      const written = pipeline(pack, fs.createWriteStream(file));
      for (const [name, text] of entries) pack.entry({ name }, text);
      pack.finalize();
      await written;
    };
    const foreign = path.join(dir, "foreign.tar");
    await tarOf(foreign, [["notes.txt", "hello"]]);
    await refuse(foreign, /not a backup of this site: its first entry is "notes\.txt"/);
    const newer = path.join(dir, "newer.tar");
    await tarOf(newer, [[MANIFEST, JSON.stringify({ format: "ojai-site-backup", version: 2, tables: {} })]]);
    await refuse(newer, /made by a newer version of the site \(format 2/);
    await refuse(path.join(dir, "no-such-file.tar"), /No backup file at/);
  });
});

/** The newest audit entries of one action. */
const auditOf = async (action: string) =>
  (await admin.get(`/api/admin/audit?action=${action}&limit=10`)).json as Array<Record<string, unknown>>;

let addresses = 0;
/** Each request from an address of its own, so only the account's throttle counts across them. */
const freshAddress = () => ({ "X-Forwarded-For": `198.51.100.${++addresses % 250}` });

describe("Download backup (POST /api/admin/backup with the current password)", () => {
  it("is a POST: GET and HEAD are 405 with Allow: POST, even signed in", async () => {
    for (const method of ["GET", "HEAD"]) {
      const answer = await fetch(`${server.url}/api/admin/backup`, { method, headers: { Cookie: admin.cookie } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get("allow"), method).toBe("POST");
      expect(answer.headers.get("content-type"), method).not.toBe("application/x-tar");
    }
  });

  it("needs a signed-in administrator: 401 without a session, even with the right password", async () => {
    const anonymous = await download({ password: TEST_ADMIN.password }, { cookie: "" });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Authentication required" });
  });

  it("needs the password: missing 400 (JSON, form, no body), wrong 403, another body type 415; nothing audited", async () => {
    const before = (await auditOf("backup-downloaded")).length;
    const missing = await download({});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/password/);
    expect((await download({ password: "" })).status).toBe(400);
    const formMissing = await download({ password: "" }, { form: true });
    expect(formMissing.status).toBe(400);
    expect(await formMissing.json()).toEqual({ error: "Enter your password." });
    expect((await download(undefined)).status).toBe(400);
    expect((await download({ password: "x".repeat(1025) })).status).toBe(400);
    const typed = await fetch(`${server.url}/api/admin/backup`, {
      method: "POST",
      headers: { Cookie: admin.cookie, "Content-Type": "text/plain" },
      body: TEST_ADMIN.password,
    });
    expect(typed.status).toBe(415);

    for (const form of [false, true]) {
      const wrong = await download({ password: "not-the-password" }, { form, headers: freshAddress() });
      expect(wrong.status).toBe(403);
      expect(wrong.headers.get("content-type")).toBe("application/json");
      expect(wrong.headers.get("content-disposition")).toBeNull();
      expect(await wrong.json()).toEqual({ error: "The password is not correct" });
      // The Settings screen reads the refusal from a frame of its own: this site alone may frame it.
      expect(wrong.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
      expect(wrong.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    }
    expect((await fetch(`${server.url}/admin/settings`)).headers.get("content-security-policy")).toContain(
      "frame-ancestors 'none'",
    );
    expect(await auditOf("backup-downloaded")).toHaveLength(before);
    await source.db.deleteFrom("rate_limits").execute();
  });

  it("refuses a POST from another site (Origin or Sec-Fetch-Site) before reading the password", async () => {
    const before = (await auditOf("backup-downloaded")).length;
    for (const headers of [{ Origin: "https://attacker.example" }, { "Sec-Fetch-Site": "cross-site" }] as Array<
      Record<string, string>
    >) {
      const answer = await download({ password: TEST_ADMIN.password }, { headers, form: true });
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({ error: "Cross-origin request refused" });
    }
    // The site's own page (Origin of the site) is not refused.
    const own = await download({ password: TEST_ADMIN.password }, { headers: { Origin: server.url }, form: true });
    expect(own.status).toBe(200);
    await own.arrayBuffer();
    expect(await auditOf("backup-downloaded")).toHaveLength(before + 1);
  });

  it("streams a backup file that restores to the same rows, and each download is an audit entry", async () => {
    const response = await download(
      { password: TEST_ADMIN.password },
      { headers: { "User-Agent": "backup-test-agent", "X-Forwarded-For": "198.51.100.77" } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-tar");
    const disposition = response.headers.get("content-disposition");
    expect(disposition).toMatch(/^attachment; filename="site-backup-[\dT-]+Z\.tar"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-encoding")).toBeNull();
    // The Settings screen's cookie comes only when it asks for it (a form field downloadId).
    expect(response.headers.get("set-cookie")).toBeNull();
    const downloaded = path.join(dir, "downloaded.tar");
    fs.writeFileSync(downloaded, Buffer.from(await response.arrayBuffer()));

    const [entry] = await auditOf("backup-downloaded");
    expect(entry).toMatchObject({
      action: "backup-downloaded",
      email: TEST_ADMIN.email,
      target: /filename="(.+)"/.exec(disposition!)![1],
      // The network, never the address (ADR 060).
      clientAddress: "198.51.100.0/24",
      userAgent: "backup-test-agent",
    });

    const target = await fresh(other);
    try {
      const restored = cli(target.url, "restore", downloaded);
      expect(restored.stderr).toBe("");
      expect(restored.status).toBe(0);
      const restoredRows = await snapshot(target.connection);
      expect(restoredRows).toEqual(await snapshot(source));
      // Written before the snapshot was taken: the file carries its own download's entry.
      expect((restoredRows.audit_log as Array<{ id: string }>).map((row) => row.id)).toContain(entry!.id);
    } finally {
      await target.cleanup();
    }
  }, 60_000);

  it("as the Settings screen's form: the same file, and a cookie with the screen's id that says it started", async () => {
    // The test before ran the CLI synchronously, which on a busy machine outlasts the server's 5 s
    // keep-alive: a turn of the event loop lets fetch's pool see the connection closed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const downloadId = crypto.randomUUID();
    const response = await download({ password: TEST_ADMIN.password, downloadId }, { form: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toBe(
      `backup-started=${downloadId}; Path=/admin; Max-Age=120; SameSite=Strict`,
    );
    const head = Buffer.from(await response.arrayBuffer())
      .subarray(0, 512)
      .toString("latin1");
    expect(head.startsWith("ojai-backup/manifest.json")).toBe(true);
    // An id that is not one (a cookie attribute smuggled in) sets nothing.
    const smuggled = await download(
      { password: TEST_ADMIN.password, downloadId: "x; Path=/; Domain=example.com" },
      { form: true },
    );
    expect(smuggled.status).toBe(200);
    expect(smuggled.headers.get("set-cookie")).toBeNull();
    await smuggled.arrayBuffer();
  });

  it("wrong passwords count on the sign-in throttle: after five, even the right one is 429", async () => {
    try {
      for (let i = 0; i < 5; i++) {
        expect((await download({ password: `guess-${i}` }, { headers: freshAddress() })).status).toBe(403);
      }
      const blocked = await download({ password: TEST_ADMIN.password }, { headers: freshAddress() });
      expect(blocked.status).toBe(429);
      expect(((await blocked.json()) as { error: string }).error).toMatch(/^Too many sign-in attempts/);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await new ApiClient(server.url).post("/api/auth/login", TEST_ADMIN, freshAddress())).status).toBe(429);
    } finally {
      await source.db.deleteFrom("rate_limits").execute();
    }
  });
});

describe("a large backup streams: the server's memory does not grow with the site", () => {
  const IMAGES = 100;
  const IMAGE_BYTES = 2.5 * 1024 * 1024;
  let big: TestServer;
  let bigAdmin: ApiClient;

  beforeAll(async () => {
    big = await startServer(AS_NPM_START);
    const connection = connect(
      big.databaseUrl.startsWith("postgres")
        ? { kind: "postgres", url: big.databaseUrl }
        : { kind: "sqlite", file: big.databaseUrl },
    );
    try {
      // 250 MB of stored images that do not compress (random bytes: a backup does not decode them).
      for (let i = 0; i < IMAGES; i++) {
        const bytes = randomBytes(IMAGE_BYTES);
        await connection.db
          .insertInto("images")
          .values({
            id: sha256(bytes),
            source_format: "jpeg",
            width: 2048,
            height: 1365,
            content_type: "image/jpeg",
            byte_size: bytes.length,
            bytes,
            created_at: new Date().toISOString(),
          })
          .execute();
      }
    } finally {
      await connection.db.destroy();
    }
    // Signed in after the insert: its synchronous SQLite writes hold this
    // process's timers for longer than the server's 5 s keep-alive, so a
    // connection opened before it was closed by the server unnoticed and the
    // next request sent on it failed ("other side closed").
    bigAdmin = new ApiClient(big.url);
    await bigAdmin.signIn();
  }, 120_000);
  afterAll(() => big?.stop());

  /** The server process's resident memory (VmRSS) or its peak so far (VmHWM), in kB. */
  const rssKb = (field: "VmRSS" | "VmHWM") => {
    const status = fs.readFileSync(`/proc/${big.pid}/status`, "utf8").split("\n");
    return Number(status.find((line) => line.startsWith(`${field}:`))!.replace(/\D/g, ""));
  };

  it(`${IMAGES} images of 2.5 MB download whole while the server's resident memory grows by far less`, async () => {
    expect((await bigAdmin.get("/api/auth/me")).status).toBe(200);
    const before = rssKb("VmRSS");
    const response = await fetch(`${big.url}/api/admin/backup`, {
      method: "POST",
      headers: { Cookie: bigAdmin.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ password: TEST_ADMIN.password }),
    });
    expect(response.status).toBe(200);
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
    expect(received).toBeGreaterThan(IMAGES * IMAGE_BYTES);
    const growthMb = (rssKb("VmHWM") - before) / 1024;
    // Held whole, the backup would add 250 MB; streamed, about one image and the socket's buffers.
    expect(growthMb).toBeLessThan(100);
  }, 120_000);
});
