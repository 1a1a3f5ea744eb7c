import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { resolveDatabase } from "~/server/platform/config.server";
import { connect, type Connection } from "~/server/db/db.server";
import { MAX_REVISIONS } from "~/server/posts/post-revisions.server";

/**
 * Revisions, autosaved drafts and edit conflicts (issue 18, ADR 043), over
 * HTTP on the backend under test.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
let server: TestServer;
let database: Connection;
let admin: ApiClient;
const visitor = () => new ApiClient(server.url);

const fields = {
  excerpt: "The excerpt",
  content: "First paragraph.\n\nSecond paragraph.",
  category: "Cloud",
  published: true,
  publishDate: "2026-01-15T10:00:00.000Z",
};
let count = 0;
async function create(extra: Record<string, unknown> = {}) {
  count += 1;
  const created = await admin.post("/api/admin/posts", {
    title: `Revised ${count}`,
    slug: `revised-${count}`,
    ...fields,
    ...extra,
  });
  expect(created.status).toBe(201);
  return created.json as { id: string; slug: string; title: string; updatedAt: string; content: string };
}

async function contentVersion() {
  const row = await database.db.selectFrom("content_version").select("version").executeTakeFirstOrThrow();
  return String(row.version);
}

beforeAll(async () => {
  server = await startServer();
  database = connect(resolveDatabase(server.databaseUrl, ROOT));
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(async () => {
  await database?.db.destroy();
  await server?.stop();
});

describe(`revisions (${TEST_BACKEND})`, () => {
  it("keeps one per save, newest first, with who and when, and each whole", async () => {
    const post = await create();
    const put = await admin.put(`/api/admin/posts/${post.id}`, {
      title: post.title,
      slug: post.slug,
      ...fields,
      content: "Changed body.",
    });
    expect(put.status).toBe(200);
    const list = await admin.get(`/api/admin/posts/${post.id}/revisions`);
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-store");
    expect(list.json.limit).toBe(MAX_REVISIONS);
    const revisions = list.json.revisions as Array<{ id: string; number: number; savedBy: string; createdAt: string }>;
    expect(revisions.map((r) => r.number)).toEqual([2, 1]);
    expect(revisions[0]!.savedBy).toBe("admin@example.com");
    expect(revisions[0]!.createdAt).toBe(put.json.updatedAt);
    expect(revisions[0]).not.toHaveProperty("content");

    const first = await admin.get(`/api/admin/posts/${post.id}/revisions/${revisions[1]!.id}`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      postId: post.id,
      number: 1,
      title: post.title,
      excerpt: fields.excerpt,
      content: fields.content,
      slug: post.slug,
      category: "Cloud",
      published: true,
      publishDate: fields.publishDate,
      readTime: "5 min read",
      noindex: false,
      emailSubscribers: false,
    });
  });

  it("keeps the newest MAX_REVISIONS of a post, and the list stays bounded", async () => {
    const post = await create();
    for (let i = 0; i < MAX_REVISIONS + 2; i++) {
      const put = await admin.put(`/api/admin/posts/${post.id}`, {
        title: post.title,
        slug: post.slug,
        ...fields,
        content: `Version ${i}`,
      });
      expect(put.status).toBe(200);
    }
    const list = await admin.get(`/api/admin/posts/${post.id}/revisions`);
    const numbers = (list.json.revisions as Array<{ number: number }>).map((r) => r.number);
    expect(numbers).toHaveLength(MAX_REVISIONS);
    expect(numbers[0]).toBe(MAX_REVISIONS + 3);
    expect(numbers.at(-1)).toBe(4);
    const stored = await database.db
      .selectFrom("document_revisions")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("document_kind", "=", "post")
      .where("document_id", "=", post.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(MAX_REVISIONS);
  });

  it("answers 404 for another post's revision, an unknown one and an unknown post", async () => {
    const a = await create();
    const b = await create();
    const ofA = (await admin.get(`/api/admin/posts/${a.id}/revisions`)).json.revisions[0].id as string;
    expect((await admin.get(`/api/admin/posts/${b.id}/revisions/${ofA}`)).status).toBe(404);
    expect((await admin.get(`/api/admin/posts/${a.id}/revisions/not-an-id`)).status).toBe(404);
    expect((await admin.get(`/api/admin/posts/${crypto.randomUUID()}/revisions`)).status).toBe(404);
  });

  it("go with their post", async () => {
    const post = await create();
    expect((await admin.delete(`/api/admin/posts/${post.id}`)).status).toBe(204);
    const rows = await database.db
      .selectFrom("document_revisions")
      .select("id")
      .where("document_kind", "=", "post")
      .where("document_id", "=", post.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe(`autosaved drafts (${TEST_BACKEND})`, () => {
  it("are kept apart: the post, its revisions and the public page do not change", async () => {
    const post = await create({ content: "What visitors read." });
    const page = await visitor().get(`/blog/${post.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("What visitors read.");
    const version = await contentVersion();

    const saved = await admin.put(`/api/admin/posts/${post.id}/autosave`, {
      title: "",
      slug: post.slug,
      ...fields,
      content: "Half-written new text",
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ postId: post.id, title: "", content: "Half-written new text" });
    expect(saved.json.baseUpdatedAt).toBe(post.updatedAt);
    // One per post and administrator: a second replaces the first.
    await admin.put(`/api/admin/posts/${post.id}/autosave`, { ...fields, title: "T", content: "Newer text" });
    const rows = await database.db
      .selectFrom("document_drafts")
      .selectAll()
      .where("document_kind", "=", "post")
      .where("document_id", "=", post.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect((await admin.get(`/api/admin/posts/${post.id}/autosave`)).json.content).toBe("Newer text");

    const stored = await admin.get(`/api/admin/posts/${post.id}`);
    expect(stored.json.content).toBe("What visitors read.");
    expect(stored.json.updatedAt).toBe(post.updatedAt);
    expect((await admin.get(`/api/admin/posts/${post.id}/revisions`)).json.revisions).toHaveLength(1);
    // The content version did not move: cached public pages stay current (ADR 024).
    expect(await contentVersion()).toBe(version);
    const after = await visitor().get(`/blog/${post.slug}`);
    expect(after.text).not.toContain("Newer text");
    expect((await visitor().get(`/api/posts/${post.slug}`)).json.content).toBe("What visitors read.");
  });

  it("is deleted by the administrator's save of the post, and by DELETE", async () => {
    const post = await create();
    await admin.put(`/api/admin/posts/${post.id}/autosave`, { ...fields, title: "x", content: "draft" });
    const put = await admin.put(`/api/admin/posts/${post.id}`, { title: post.title, slug: post.slug, ...fields });
    expect(put.status).toBe(200);
    expect((await admin.get(`/api/admin/posts/${post.id}/autosave`)).status).toBe(404);
    await admin.put(`/api/admin/posts/${post.id}/autosave`, { ...fields, title: "x", content: "draft" });
    expect((await admin.delete(`/api/admin/posts/${post.id}/autosave`)).status).toBe(204);
    expect((await admin.get(`/api/admin/posts/${post.id}/autosave`)).status).toBe(404);
  });

  it("is refused with 409 when the post was saved since its base", async () => {
    const post = await create();
    const put = await admin.put(`/api/admin/posts/${post.id}`, { title: post.title, slug: post.slug, ...fields });
    const stale = await admin.put(`/api/admin/posts/${post.id}/autosave`, {
      ...fields,
      title: "old tab",
      baseUpdatedAt: post.updatedAt,
    });
    expect(stale.status).toBe(409);
    expect(stale.json.updatedAt).toBe(put.json.updatedAt);
    expect((await admin.get(`/api/admin/posts/${post.id}/autosave`)).status).toBe(404);
  });

  it("keep the newsletter option as the form had it, and refuse a non-boolean one", async () => {
    const post = await create();
    const saved = await admin.put(`/api/admin/posts/${post.id}/autosave`, { ...fields, emailSubscribers: true });
    expect(saved.status).toBe(200);
    expect(saved.json.emailSubscribers).toBe(true);
    expect((await admin.get(`/api/admin/posts/${post.id}/autosave`)).json.emailSubscribers).toBe(true);
    // The post itself is unchanged until it is saved.
    expect((await admin.get(`/api/admin/posts/${post.id}`)).json.emailSubscribers).toBe(false);
    const bad = await admin.put(`/api/admin/posts/${post.id}/autosave`, { ...fields, emailSubscribers: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: "emailSubscribers must be true or false" });
    // Saved with it, the post's new revision keeps it too.
    await admin.put(`/api/admin/posts/${post.id}`, {
      title: post.title,
      slug: post.slug,
      ...fields,
      emailSubscribers: true,
    });
    const newest = (await admin.get(`/api/admin/posts/${post.id}/revisions`)).json.revisions[0].id as string;
    expect((await admin.get(`/api/admin/posts/${post.id}/revisions/${newest}`)).json.emailSubscribers).toBe(true);
  });

  it("refuses fields past their bounds and unknown posts", async () => {
    const post = await create();
    const long = await admin.put(`/api/admin/posts/${post.id}/autosave`, { title: "x".repeat(301) });
    expect(long.status).toBe(400);
    const badBase = await admin.put(`/api/admin/posts/${post.id}/autosave`, { baseUpdatedAt: "x".repeat(100) });
    expect(badBase.status).toBe(400);
    const unknown = await admin.put(`/api/admin/posts/${crypto.randomUUID()}/autosave`, { title: "x" });
    expect(unknown.status).toBe(404);
  });
});

describe(`edit conflicts (${TEST_BACKEND})`, () => {
  it("a PUT with a stale baseUpdatedAt answers 409 and changes nothing; without one, as before", async () => {
    const post = await create();
    const body = { title: post.title, slug: post.slug, ...fields };
    const first = await admin.put(`/api/admin/posts/${post.id}`, {
      ...body,
      content: "Tab one",
      baseUpdatedAt: post.updatedAt,
    });
    expect(first.status).toBe(200);
    const stale = await admin.put(`/api/admin/posts/${post.id}`, {
      ...body,
      content: "Tab two",
      baseUpdatedAt: post.updatedAt,
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatch(/changed after you opened it/);
    expect(stale.json.updatedAt).toBe(first.json.updatedAt);
    expect((await admin.get(`/api/admin/posts/${post.id}`)).json.content).toBe("Tab one");
    expect((await admin.get(`/api/admin/posts/${post.id}/revisions`)).json.revisions).toHaveLength(2);
    // Saving again on purpose: the new base replaces theirs.
    const over = await admin.put(`/api/admin/posts/${post.id}`, {
      ...body,
      content: "Tab two",
      baseUpdatedAt: stale.json.updatedAt,
    });
    expect(over.status).toBe(200);
    // A client that sends nothing new is never refused.
    const plain = await admin.put(`/api/admin/posts/${post.id}`, { ...body, content: "Old client" });
    expect(plain.status).toBe(200);
    const bad = await admin.put(`/api/admin/posts/${post.id}`, { ...body, baseUpdatedAt: 12 });
    expect(bad.status).toBe(400);
  });

  it("of two parallel PUTs from one base, exactly one is saved", async () => {
    for (let round = 0; round < 5; round++) {
      const post = await create();
      const body = { title: post.title, slug: post.slug, ...fields, baseUpdatedAt: post.updatedAt };
      const answers = await Promise.all([
        admin.put(`/api/admin/posts/${post.id}`, { ...body, content: "A" }),
        admin.put(`/api/admin/posts/${post.id}`, { ...body, content: "B" }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!;
      const stored = await admin.get(`/api/admin/posts/${post.id}`);
      expect(stored.json.content).toBe(winner.json.content);
      const numbers = (await admin.get(`/api/admin/posts/${post.id}/revisions`)).json.revisions.map(
        (r: { number: number }) => r.number,
      );
      expect(numbers).toEqual([2, 1]);
    }
  });
});

describe("authorization", () => {
  it("answers 401 without a session, for every new route and method", async () => {
    const post = await create();
    const rev = (await admin.get(`/api/admin/posts/${post.id}/revisions`)).json.revisions[0].id as string;
    const anyone = visitor();
    expect((await anyone.get(`/api/admin/posts/${post.id}/revisions`)).status).toBe(401);
    expect((await anyone.get(`/api/admin/posts/${post.id}/revisions/${rev}`)).status).toBe(401);
    expect((await anyone.get(`/api/admin/posts/${post.id}/autosave`)).status).toBe(401);
    expect((await anyone.put(`/api/admin/posts/${post.id}/autosave`, { title: "x" })).status).toBe(401);
    expect((await anyone.delete(`/api/admin/posts/${post.id}/autosave`)).status).toBe(401);
    expect((await admin.post(`/api/admin/posts/${post.id}/revisions`, {})).status).toBe(405);
  });
});
