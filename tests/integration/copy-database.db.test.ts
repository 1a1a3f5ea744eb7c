import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COPIED_TABLES,
  copyDatabase,
  POSTGRES_INDEX_TABLES,
  SKIPPED_TABLES,
  SQLITE_INDEX_TABLES,
} from "~/server/backup/copy-database.server";
import { listAdminPosts } from "~/server/posts/posts.server";
import { createPostgresDatabase, TEST_BACKEND } from "../support/backend";
import { freshDatabase, freshSqlite } from "../support/database";
import { generatedTitle, generatePosts } from "../support/generate-posts";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

const CLI = path.resolve(import.meta.dirname, "../../build/server/cli.js");
const copy = (from: string, to: string) =>
  spawnSync(process.execPath, [CLI, "copy-database", "--from", from, "--to", to], { encoding: "utf8" });

describe("the copy command's table list", () => {
  it("names every table of the schema, as copied, as deliberately skipped or as SQLite's title index", async () => {
    const { connection, cleanup } = await freshDatabase();
    try {
      const tables = (await connection.db.introspection.getTables()).map((t) => t.name).sort();
      const indexTables = connection.kind === "sqlite" ? SQLITE_INDEX_TABLES : POSTGRES_INDEX_TABLES;
      expect(tables).toEqual([...COPIED_TABLES, ...SKIPPED_TABLES, ...indexTables].sort());
    } finally {
      await cleanup();
    }
  });
});

describe(`copying a database with full client addresses (${TEST_BACKEND})`, () => {
  it("copies their networks, and no e-mail a stranger tried to sign in with (migration 025's rule)", async () => {
    const [from, to] = await Promise.all([freshDatabase(), freshDatabase()]);
    try {
      const at = new Date().toISOString();
      const admin = "00000000-0000-4000-8000-0000000000a1";
      // Rows as a database written before migration 025, or by hand, may hold them.
      await from.connection.db
        .insertInto("admin_users")
        .values({ id: admin, email: "owner@example.com", password_hash: "x", created_at: at, updated_at: at })
        .execute();
      await from.connection.db
        .insertInto("sessions")
        .values({ id: "a".repeat(64), user_id: admin, created_at: at, expires_at: at, ip_address: "203.0.113.9" })
        .execute();
      const entry = (id: string, fields: Record<string, string | null>) => ({
        id,
        created_at: at,
        action: "sign-in-failed",
        actor_id: null,
        client_address: "2001:db8:1:2::9",
        ...fields,
      });
      await from.connection.db
        .insertInto("audit_log")
        .values([
          entry("00000000-0000-7000-8000-000000000001", { actor_email: "who@else.net" }),
          entry("00000000-0000-7000-8000-000000000002", { actor_email: "Owner@Example.com" }),
          entry("00000000-0000-7000-8000-000000000003", {
            action: "sign-in",
            actor_id: admin,
            actor_email: "owner@example.com",
            client_address: "::ffff:192.0.2.9",
          }),
        ])
        .execute();
      await copyDatabase(from.connection, to.connection);
      const sessions = await to.connection.db.selectFrom("sessions").select("ip_address").execute();
      expect(sessions).toEqual([{ ip_address: "203.0.113.0/24" }]);
      const entries = await to.connection.db
        .selectFrom("audit_log")
        .select(["actor_email", "client_address"])
        .orderBy("id")
        .execute();
      expect(entries).toEqual([
        { actor_email: null, client_address: "2001:db8:1::/48" },
        { actor_email: "owner@example.com", client_address: "2001:db8:1::/48" },
        { actor_email: "owner@example.com", client_address: "192.0.2.0/24" },
      ]);
    } finally {
      await Promise.all([from.cleanup(), to.cleanup()]);
    }
  });
});

describe(`copying the newsletter (${TEST_BACKEND}, ADR 072)`, () => {
  it("moves the subscribers, a mailing under way and each of its sends, and a post's wish to be e-mailed", async () => {
    const [from, to] = await Promise.all([freshDatabase(), freshDatabase()]);
    try {
      await generatePosts(from.url, 2);
      const postId = "00000000-0000-4000-8000-000000000001";
      const at = "2026-11-20T08:00:00.000Z";
      await from.connection.db.updateTable("posts").set({ email_subscribers: 1 }).where("id", "=", postId).execute();
      const subscriber = (id: string, email: string) => ({
        id,
        email,
        status: "confirmed" as const,
        consent: "form" as const,
        created_at: at,
        confirm_sent_at: at,
        confirmed_at: at,
        unsubscribed_at: null,
      });
      const [ada, grace] = ["00000000-0000-4000-8000-0000000000b1", "00000000-0000-4000-8000-0000000000b2"];
      await from.connection.db
        .insertInto("subscribers")
        .values([subscriber(ada, "ada@example.com"), subscriber(grace, "grace@example.com")])
        .execute();
      const mailing = "00000000-0000-4000-8000-0000000000c1";
      await from.connection.db
        .insertInto("newsletter_mailings")
        .values({
          id: mailing,
          post_id: postId,
          status: "sending",
          recipients: 2,
          sent: 1,
          created_at: at,
          finished_at: null,
        })
        .execute();
      await from.connection.db
        .insertInto("newsletter_recipients")
        .values([
          { mailing_id: mailing, subscriber_id: ada, status: "sent", sent_at: at, error: null },
          { mailing_id: mailing, subscriber_id: grace, status: "pending", sent_at: null, error: null },
        ])
        .execute();
      const counts = await copyDatabase(from.connection, to.connection);
      expect(counts).toMatchObject({ subscribers: 2, newsletter_mailings: 1, newsletter_recipients: 2 });
      const newsletter = async ({ db }: typeof from.connection) => ({
        subscribers: await db.selectFrom("subscribers").selectAll().orderBy("id").execute(),
        mailings: await db.selectFrom("newsletter_mailings").selectAll().orderBy("id").execute(),
        recipients: await db.selectFrom("newsletter_recipients").selectAll().orderBy("subscriber_id").execute(),
      });
      expect(await newsletter(to.connection)).toEqual(await newsletter(from.connection));
      const emailed = await to.connection.db
        .selectFrom("posts")
        .select("id")
        .where("email_subscribers", "=", 1)
        .execute();
      expect(emailed).toEqual([{ id: postId }]);
    } finally {
      await Promise.all([from.cleanup(), to.cleanup()]);
    }
  });
});

describe.runIf(TEST_BACKEND === "sqlite")("copying into SQLite", () => {
  it("indexes the copied posts' titles for the title filter (its index tables are not copied)", async () => {
    const [from, to] = await Promise.all([freshSqlite(), freshSqlite()]);
    try {
      await generatePosts(from.url, 30);
      // A post called "search" from before migration 017 (ADR 042): renamed on the way in.
      await from.connection.db
        .updateTable("posts")
        .set({ slug: "search" })
        .where("title", "=", generatedTitle(3))
        .execute();
      const counts = await copyDatabase(from.connection, to.connection);
      const renamed = await to.connection.db
        .selectFrom("posts")
        .select("slug")
        .where("title", "=", generatedTitle(3))
        .executeTakeFirstOrThrow();
      expect(renamed.slug).toBe("search-post");
      expect(counts.posts).toBe(30);
      const found = await listAdminPosts(to.connection.db, { q: "POST 0001", sort: "title", limit: 50, offset: 0 });
      expect(found.posts.map((post) => post.title)).toEqual(
        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map(generatedTitle),
      );
      const discounts = await listAdminPosts(to.connection.db, { q: "100% OFF", sort: "title", limit: 50, offset: 0 });
      expect(discounts.posts.map((post) => post.title)).toEqual([generatedTitle(7)]);
      const posts = await listAdminPosts(to.connection.db, {
        q: "generated post",
        sort: "title",
        limit: 50,
        offset: 0,
      });
      expect(posts.total).toBe(29);
      // generatePosts writes SQL without category slugs; the copy sets them (ADR 041).
      const categorySlugs = await to.connection.db.selectFrom("posts").select("category_slug").distinct().execute();
      expect(categorySlugs).toEqual([{ category_slug: "generated" }]);
    } finally {
      await Promise.all([from.cleanup(), to.cleanup()]);
    }
  });
});

// Copying a SQLite site into PostgreSQL needs PostgreSQL: it runs in the
// PostgreSQL pass of the suite, which CI always runs.
describe.runIf(TEST_BACKEND === "postgres")("copying a SQLite site into PostgreSQL", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-copy-"));
  const sqliteFile = path.join(dir, "site.db");
  let target: { url: string; drop: () => Promise<void> };
  let onPostgres: TestServer | undefined;
  let postId: string;
  let imageUrls: string[];

  beforeAll(async () => {
    const onSqlite = await startServer({ DATABASE_URL: sqliteFile, SEED_SAMPLE_POSTS: "true" });
    try {
      const admin = new ApiClient(onSqlite.url);
      await admin.signIn();
      const created = await admin.post("/api/admin/posts", {
        title: "Kept in the move",
        slug: "kept-in-the-move",
        excerpt: "Written on SQLite",
        content: "Read on **PostgreSQL**.",
        category: "Operations",
        readTime: "1 min read",
        published: false,
        publishDate: "2026-01-15T10:00:00.000Z",
        headerImage: null,
      });
      expect(created.status).toBe(201);
      postId = created.json.id;
      const png = await sharp({ create: { width: 700, height: 350, channels: 3, background: "#224466" } })
        .png()
        .toBuffer();
      const image = await admin.uploadPng(png);
      imageUrls = [image.url, ...image.variants.map((v) => v.url)];
      const sent = await new ApiClient(onSqlite.url).post("/api/contact", {
        name: "Grace Hopper",
        email: "grace@example.com",
        phone: "",
        preferredContact: "email",
        service: "systems",
        message: "Please call about a migration.",
        elapsedMs: 10_000,
      });
      expect(sent.status).toBe(201);
      // A page's content, published once, and a draft of it (ADR 053).
      const about = (await admin.get("/api/admin/content/about")).json;
      about.team.members[0].name = "Ana Ruiz, moved to PostgreSQL";
      expect((await admin.put("/api/admin/content/about", about)).status).toBe(200);
      const draft = { ...about, tagline: "A draft that moves too" };
      const saved = await admin.put("/api/admin/content/about/draft", {
        document: draft,
        baseVersion: 1,
        overDraftVersion: 0,
      });
      expect(saved.status).toBe(200);
    } finally {
      await onSqlite.stop();
    }
    target = await createPostgresDatabase();
  }, 60_000);
  afterAll(async () => {
    await onPostgres?.stop();
    await target?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("copies posts (drafts too), images, contact messages and administrators, and the site runs on the copy", async () => {
    const result = copy(sqliteFile, target.url);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/posts: \d+ rows/);
    expect(result.stdout).toContain("admin_users: 1 rows");

    onPostgres = await startServer({ DATABASE_URL: target.url, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
    // No setup link: the copied administrator exists, and signs in with the same password.
    expect(onPostgres.logs.some((l) => typeof l.setupLink === "string")).toBe(false);
    const admin = new ApiClient(onPostgres.url);
    await admin.signIn(TEST_ADMIN);
    const all = await admin.get("/api/admin/posts");
    expect(all.json.some((p: { id: string }) => p.id === postId)).toBe(true);
    // The title filter's index (a GIN index there) covers the copied posts.
    const filtered = await admin.get("/api/admin/posts?q=in%20the%20MOVE");
    expect(filtered.json.map((p: { id: string }) => p.id)).toEqual([postId]);
    const draft = (await admin.get(`/api/admin/posts/${postId}`)).json;
    expect(draft).toMatchObject({ slug: "kept-in-the-move", published: false, content: "Read on **PostgreSQL**." });
    // The search index (a tsvector table there, ADR 042) covers the copied posts.
    const search = await (await fetch(`${onPostgres.url}/blog/search?q=cloud+governance`)).text();
    expect(search).toContain('href="/blog/tenant-onboarding-in-under-30-minutes"');
    const samples = await new ApiClient(onPostgres.url).get("/api/posts");
    expect(samples.json.length).toBeGreaterThan(0);
    const messages = await admin.get("/api/admin/messages");
    expect(messages.status).toBe(200);
    expect(JSON.stringify(messages.json)).toContain("Please call about a migration.");
    expect(await (await fetch(`${onPostgres.url}/about`)).text()).toContain("Ana Ruiz, moved to PostgreSQL");
    const versions = (await admin.get("/api/admin/content/about/revisions")).json.revisions;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1, 0]);
    expect((await admin.get("/api/admin/content/about/draft")).json.document.tagline).toBe("A draft that moves too");
    for (const url of imageUrls) {
      const image = await fetch(onPostgres.url + url);
      expect(image.status).toBe(200);
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it("refuses a target that already holds data, and changes nothing there", () => {
    const result = copy(sqliteFile, target.url);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/already has data in admin_users/);
  });

  it("refuses a source file that does not exist", () => {
    const result = copy(path.join(dir, "missing.db"), target.url);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("No database file at");
  });
});
