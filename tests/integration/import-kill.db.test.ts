import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportReport } from "~/lib/import";
import { connect, type Connection } from "~/server/db/db.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { bulkPost, wxrFile } from "../../scripts/lib/exports.mjs";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { endRunningLeases } from "../support/database";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * An import survives kill -9 (ADR 074): the server importing a WordPress
 * export of POSTS posts is killed once it has made some, and a new server on
 * the same database takes the work up once the killed run's lease has run
 * out (ended by the test rather than waited for: endRunningLeases). Every post is then there exactly once (no `-2` slug of a post
 * made twice), counted once, with all its old addresses redirected.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
/**
 * Enough that the kill, once 50 are made, leaves most of the work to the
 * next server; more posts would only repeat what each post already shows.
 */
const POSTS = 200;
/** bulkPost's categories: Topic 0 ... Topic 19. */
const CATEGORIES = 20;

async function report(client: ApiClient, id: string): Promise<ImportReport> {
  const result = await client.get(`/api/admin/import/${id}`);
  expect(result.status, result.text).toBe(200);
  return result.json as ImportReport;
}

/** Polls the import's report until `done` says so; fails after `timeoutMs`. */
async function until(
  client: ApiClient,
  id: string,
  done: (report: ImportReport) => boolean,
  timeoutMs: number,
): Promise<ImportReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await report(client, id);
    if (done(current)) return current;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms: ${JSON.stringify(current)}`);
    await sleep(100);
  }
}

describe(`an import when its server is killed (${TEST_BACKEND})`, () => {
  let databaseUrl: string;
  let dropDatabase: () => Promise<void> = async () => {};
  let first: TestServer | undefined;
  let second: TestServer | undefined;
  let database: Connection | undefined;

  beforeAll(async () => {
    const created = await createTestDatabase(undefined, { migrated: true });
    databaseUrl = created.url;
    dropDatabase = created.drop;
    first = await startServer({ DATABASE_URL: databaseUrl });
  });
  afterAll(async () => {
    await database?.db.destroy();
    await first?.stop();
    await second?.stop();
    await dropDatabase();
  });

  it("is finished by the next server, each post made and counted once, with its redirects", async () => {
    const admin = new ApiClient(first!.url);
    await admin.signIn();
    const posts = Array.from({ length: POSTS }, (_, i) => bulkPost(i + 1));
    const form = new FormData();
    form.append("file", new Blob([wxrFile("https://old.example.com", posts)]), "big.xml");
    const started = await fetch(`${first!.url}/api/admin/import`, {
      method: "POST",
      body: form,
      headers: { Cookie: admin.cookie },
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };

    const before = await until(admin, id, (current) => current.processed > 50 || current.status !== "running", 60_000);
    expect(before.status).toBe("running");
    await first!.kill("SIGKILL");
    // Killed part-way: the rest is the next server's.
    expect(before.processed).toBeLessThan(POSTS);
    database = connect(resolveDatabase(databaseUrl, ROOT));
    expect(await endRunningLeases(database.db)).toBeGreaterThan(0);

    second = await startServer({ DATABASE_URL: databaseUrl });
    const next = new ApiClient(second.url);
    await next.signIn();
    const after = await until(next, id, (current) => current.status !== "running", 120_000);
    expect(after).toMatchObject({
      status: "done",
      error: null,
      total: POSTS,
      processed: POSTS,
      created: POSTS,
      skipped: 0,
      redirects: POSTS * 2 + CATEGORIES,
      problems: [],
    });
    expect(after.processed).toBeGreaterThan(before.processed);

    const db = database.db;
    const slugs = (await db.selectFrom("posts").select("slug").execute()).map((row) => row.slug).sort();
    expect(slugs).toEqual(posts.map((post) => post.slug).sort());
    const items = await db.selectFrom("import_items").select(["source_key", "post_id"]).execute();
    expect(items).toHaveLength(POSTS);
    expect(new Set(items.map((item) => item.post_id)).size).toBe(POSTS);

    const redirects = await db
      .selectFrom("redirects")
      .select(["from_path", "to_path"])
      .where("imported", "=", 1)
      .execute();
    expect(redirects).toHaveLength(POSTS * 2 + CATEGORIES);
    const to = new Map(redirects.map((redirect) => [redirect.from_path, redirect.to_path]));
    for (const post of posts) {
      expect(to.get(`/${post.slug}`), post.slug).toBe(`/blog/${post.slug}`);
      expect(to.get(`/?p=${post.id}`), post.slug).toBe(`/blog/${post.slug}`);
    }
    for (let topic = 0; topic < CATEGORIES; topic++)
      expect(to.get(`/category/topic-${topic}`)).toBe(`/blog/category/topic-${topic}`);

    // And the new server answers them.
    const answer = await fetch(`${second.url}/?p=${POSTS}`, { redirect: "manual" });
    expect(answer.status).toBe(301);
    expect(answer.headers.get("location")).toBe(`/blog/bulk-post-${POSTS}`);
  }, 200_000);
});
