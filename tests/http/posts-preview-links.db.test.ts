import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { MAX_LIVE_SHARE_LINKS, SHARE_LINK_DAYS } from "~/lib/share-links";
import { resolveDatabase } from "~/server/platform/config.server";
import { connect, type Connection } from "~/server/db/db.server";
import { cacheKeyOf } from "~/server/page-cache/key.server";
import { hashSecretToken } from "~/server/platform/secret-tokens.server";

/**
 * Share links of drafts and scheduled posts (issue 18, ADR 044) over HTTP on
 * the backend under test: the admin API, the /blog/preview/{token} page and
 * its headers, expiry, revocation, the cap, and the post's deletion.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const NOWHERE = "00000000-0000-4000-8000-000000000000";

let server: TestServer;
let database: Connection;
let admin: ApiClient;
const visitor = () => new ApiClient(server.url);

let count = 0;
async function createPost(fields: Record<string, unknown> = {}) {
  count += 1;
  const { status, json } = await admin.post("/api/admin/posts", {
    title: `Draft number ${count}`,
    slug: `draft-number-${count}`,
    excerpt: "What the draft is about",
    content: "## A heading\n\nThe draft's **body**.",
    category: "Cloud",
    published: false,
    ...fields,
  });
  expect(status).toBe(201);
  return json as { id: string; slug: string; title: string };
}

const linksOf = (postId: string) => `/api/admin/posts/${postId}/preview-links`;

async function createLink(postId: string) {
  const created = await admin.post(linksOf(postId));
  expect(created.status).toBe(201);
  return created.json as { id: string; url: string; createdAt: string; expiresAt: string };
}

/** The link's path on the test server (SITE_URL may differ from where it listens). */
const pathOf = (url: string) => new URL(url).pathname;
const tokenOf = (url: string) => pathOf(url).split("/").pop()!;

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

describe("making, listing and revoking links", () => {
  it("POST answers 201 with the link once; only the token's hash is stored; it lives 7 days", async () => {
    const post = await createPost();
    const before = Date.now();
    const created = await admin.post(linksOf(post.id));
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(created.json).sort()).toEqual(["createdAt", "expiresAt", "id", "url"]);
    expect(created.json.url).toMatch(/^https?:\/\/[^/]+\/blog\/preview\/[\w-]{43}$/);
    const lifetime = Date.parse(created.json.expiresAt) - Date.parse(created.json.createdAt);
    expect(lifetime).toBe(SHARE_LINK_DAYS * 86_400_000);
    expect(Date.parse(created.json.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const token = tokenOf(created.json.url);
    const rows = await database.db
      .selectFrom("share_links")
      .selectAll()
      .where("document_kind", "=", "post")
      .where("document_id", "=", post.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashSecretToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const listed = await admin.get(linksOf(post.id));
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({
      links: [
        {
          id: created.json.id,
          createdAt: created.json.createdAt,
          expiresAt: created.json.expiresAt,
          createdBy: "admin@example.com",
        },
      ],
    });
    expect(listed.text).not.toContain(token);
  });

  it("two links to one post are different; each opens the post", async () => {
    const post = await createPost();
    const first = await createLink(post.id);
    const second = await createLink(post.id);
    expect(first.url).not.toBe(second.url);
    for (const link of [first, second]) expect((await visitor().get(pathOf(link.url))).status).toBe(200);
    const listed = await admin.get(linksOf(post.id));
    // Newest first.
    expect(listed.json.links.map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);
  });

  it("DELETE revokes: 204, then the link is a 404 (twice: nothing kept it) and leaves the list", async () => {
    const post = await createPost();
    const link = await createLink(post.id);
    const kept = await createLink(post.id);
    // Opened twice first, so a cache that kept it would answer the next requests.
    expect((await visitor().get(pathOf(link.url))).status).toBe(200);
    expect((await visitor().get(pathOf(link.url))).status).toBe(200);
    const revoked = await admin.delete(`${linksOf(post.id)}/${link.id}`);
    expect(revoked.status).toBe(204);
    for (let i = 0; i < 2; i++) {
      const page = await visitor().get(pathOf(link.url));
      expect(page.status).toBe(404);
      expect(page.text).not.toContain(post.title);
    }
    expect((await visitor().get(pathOf(kept.url))).status).toBe(200);
    const listed = await admin.get(linksOf(post.id));
    expect(listed.json.links.map((l: { id: string }) => l.id)).toEqual([kept.id]);
    // Revoking again, or a link of another post, or no link at all: 404.
    expect((await admin.delete(`${linksOf(post.id)}/${link.id}`)).status).toBe(404);
    const other = await createPost();
    expect((await admin.delete(`${linksOf(other.id)}/${kept.id}`)).status).toBe(404);
    expect((await admin.delete(`${linksOf(post.id)}/${NOWHERE}`)).status).toBe(404);
    expect((await admin.delete(`${linksOf(post.id)}/not-an-id`)).status).toBe(404);
    expect((await visitor().get(pathOf(kept.url))).status).toBe(200);
  });

  it("an unknown or malformed post id is a 404 for GET and POST", async () => {
    for (const id of [NOWHERE, "not-an-id", "x".repeat(300)]) {
      const listed = await admin.get(linksOf(id));
      expect(listed.status).toBe(404);
      expect(listed.json).toEqual({ error: "Post not found" });
      expect((await admin.post(linksOf(id))).status).toBe(404);
    }
  });

  it(`a post has at most ${MAX_LIVE_SHARE_LINKS} live links: the next is refused with 409 until one goes`, async () => {
    const post = await createPost();
    const links = [];
    for (let i = 0; i < MAX_LIVE_SHARE_LINKS; i++) links.push(await createLink(post.id));
    const refused = await admin.post(linksOf(post.id));
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatch(/already has 10 live share links/);
    expect((await admin.get(linksOf(post.id))).json.links).toHaveLength(MAX_LIVE_SHARE_LINKS);
    // Another post is not affected.
    await createLink((await createPost()).id);
    // Revoked and expired links do not count.
    expect((await admin.delete(`${linksOf(post.id)}/${links[0]!.id}`)).status).toBe(204);
    await database.db
      .updateTable("share_links")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", links[1]!.id)
      .execute();
    await createLink(post.id);
    await createLink(post.id);
    expect((await admin.post(linksOf(post.id))).status).toBe(409);
    // Making links pruned the dead rows (of every post).
    const dead = await database.db
      .selectFrom("share_links")
      .select("id")
      .where("id", "in", [links[0]!.id, links[1]!.id])
      .execute();
    expect(dead).toEqual([]);
  });

  it("links made at once still stop at the bound: exactly 10 of 13 are made", async () => {
    const post = await createPost();
    const answers = await Promise.all(Array.from({ length: 13 }, () => admin.post(linksOf(post.id))));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(10).fill(201), ...Array(3).fill(409)]);
    expect((await admin.get(linksOf(post.id))).json.links).toHaveLength(MAX_LIVE_SHARE_LINKS);
  });

  it("creating and revoking are in the audit log, under the post's slug", async () => {
    const post = await createPost();
    const link = await createLink(post.id);
    await admin.delete(`${linksOf(post.id)}/${link.id}`);
    const created = await admin.get("/api/admin/audit?action=preview-link-created&limit=100");
    expect(created.json.map((e: { target: string }) => e.target)).toContain(post.slug);
    const revoked = await admin.get("/api/admin/audit?action=preview-link-revoked&limit=100");
    expect(revoked.json.map((e: { target: string }) => e.target)).toContain(post.slug);
    const screen = await admin.get("/admin/audit?action=preview-link-revoked");
    expect(screen.text).toContain("Share link revoked");
  });
});

describe("the preview page", () => {
  it("shows the draft as its article page will, with a notice, noindex and no caching", async () => {
    const post = await createPost({
      title: "Our cloud plans for next year",
      metaDescription: "A look ahead",
    });
    const link = await createLink(post.id);
    // The draft's own page is a 404, as before.
    expect((await visitor().get(`/blog/${post.slug}`)).status).toBe(404);

    const page = await visitor().get(pathOf(link.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.text).toMatch(/<h1[^>]*>Our cloud plans for next year<\/h1>/);
    expect(page.text).toContain("<h2>A heading</h2>");
    expect(page.text).toContain('<meta name="robots" content="noindex"/>');
    expect(page.text).toContain('<meta name="referrer" content="no-referrer"/>');
    expect(page.text).toContain('<meta name="description" content="A look ahead"/>');
    expect(page.text).not.toContain('rel="canonical"');
    expect(page.text).not.toContain("og:url");
    expect(page.text).toContain("Preview: not published yet.");
    const expires = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(link.expiresAt),
    );
    expect(page.text).toContain(`it expires on ${expires}.`);
    // The same article markup as the public page: the same heading id and body wrapper.
    expect(page.text).toContain('class="prose-article mt-10"');
    expect(page.text).toContain("Back to articles");
    expect(page.text).not.toContain("This is the newest article");
    // The router ignores case: so do the headers and the access log.
    const shouted = await visitor().get(pathOf(link.url).replace("/blog/preview/", "/BLOG/Preview/"));
    expect(shouted.status).toBe(200);
    expect(shouted.headers.get("cache-control")).toBe("private, no-store");
    expect(shouted.headers.get("referrer-policy")).toBe("no-referrer");
    expect(JSON.stringify(server.logs)).not.toContain(tokenOf(link.url));
  });

  it("a scheduled post says when it will be published; a published one links to its page", async () => {
    const scheduled = await createPost({ published: true, publishDate: "2099-03-01T09:00:00.000Z" });
    const soon = await visitor().get(pathOf((await createLink(scheduled.id)).url));
    expect(soon.status).toBe(200);
    expect(soon.text).toContain("Preview: scheduled for March 1, 2099, not published yet.");

    const published = await createPost({ published: true, publishDate: "2026-01-01T09:00:00.000Z" });
    const live = await visitor().get(pathOf((await createLink(published.id)).url));
    expect(live.status).toBe(200);
    expect(live.text).toContain("this post is published now");
    expect(live.text).toContain(`href="/blog/${published.slug}"`);
    expect(live.text).toContain('<meta name="robots" content="noindex"/>');
  });

  it("shows the post as last saved", async () => {
    const post = await createPost();
    const link = await createLink(post.id);
    const updated = await admin.put(`/api/admin/posts/${post.id}`, {
      title: "A better title",
      slug: post.slug,
      excerpt: "New excerpt",
      content: "Rewritten body",
      category: "Cloud",
      published: false,
    });
    expect(updated.status).toBe(200);
    const page = await visitor().get(pathOf(link.url));
    expect(page.text).toMatch(/<h1[^>]*>A better title<\/h1>/);
    expect(page.text).toContain("Rewritten body");
  });

  it("unknown, malformed, expired and revoked tokens are one and the same 404, never cached", async () => {
    const post = await createPost();
    const expired = await createLink(post.id);
    await database.db
      .updateTable("share_links")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", expired.id)
      .execute();
    const revoked = await createLink(post.id);
    await admin.delete(`${linksOf(post.id)}/${revoked.id}`);
    const token = tokenOf(revoked.url);
    const paths = [
      pathOf(expired.url),
      pathOf(revoked.url),
      `/blog/preview/${"A".repeat(43)}`,
      `/blog/preview/${token.slice(1)}`,
      `/blog/preview/${token}x`,
      `/blog/preview/${token.slice(1)}.`,
      `/blog/preview/${"a".repeat(5000)}`,
      "/blog/preview/%00",
    ];
    const bodies = new Set<string>();
    for (const p of paths) {
      const page = await visitor().get(p);
      expect(page.status, p).toBe(404);
      expect(page.headers.get("cache-control"), p).toBe("private, no-store");
      expect(page.headers.get("x-robots-tag"), p).toBe("noindex, nofollow");
      expect(page.text).not.toContain(post.title);
      bodies.add(page.text.replace(/nonce="[^"]*"/g, ""));
    }
    expect(bodies.size).toBe(1);
    // The list shows neither.
    expect((await admin.get(linksOf(post.id))).json.links).toEqual([]);
  });

  it("deleting the post deletes its links: the link is a 404", async () => {
    const post = await createPost();
    const link = await createLink(post.id);
    expect((await visitor().get(pathOf(link.url))).status).toBe(200);
    expect((await admin.delete(`/api/admin/posts/${post.id}`)).status).toBe(204);
    const rows = await database.db
      .selectFrom("share_links")
      .select("id")
      .where("document_kind", "=", "post")
      .where("document_id", "=", post.id)
      .execute();
    expect(rows).toEqual([]);
    expect((await visitor().get(pathOf(link.url))).status).toBe(404);
  });

  it("is never in the page cache, the sitemap, the feed or the public API; its token is not in the access log", async () => {
    const post = await createPost({ title: "Secret plans draft" });
    const link = await createLink(post.id);
    expect(cacheKeyOf(pathOf(link.url))).toBeUndefined();
    expect(cacheKeyOf(`${pathOf(link.url)}?utm_source=x`)).toBeUndefined();
    expect(cacheKeyOf("/blog/preview")).toBe("/blog/preview");
    expect((await visitor().get(pathOf(link.url))).status).toBe(200);
    for (const p of ["/sitemap.xml", "/rss.xml", "/api/posts", "/blog"]) {
      const answer = await visitor().get(p);
      expect(answer.text, p).not.toContain("Secret plans draft");
      expect(answer.text, p).not.toContain("/blog/preview/");
    }
    const token = tokenOf(link.url);
    expect(JSON.stringify(server.logs)).not.toContain(token);
    expect(JSON.stringify(server.logs)).toContain("/blog/preview/[token]");
  });
});

describe("without a session, and from another origin", () => {
  it("every call answers 401 without a session", async () => {
    const post = await createPost();
    const link = await createLink(post.id);
    const stranger = visitor();
    expect((await stranger.get(linksOf(post.id))).status).toBe(401);
    expect((await stranger.post(linksOf(post.id))).status).toBe(401);
    expect((await stranger.delete(`${linksOf(post.id)}/${link.id}`)).status).toBe(401);
    expect((await visitor().get(pathOf(link.url))).status).toBe(200);
  });

  it("a signed-in administrator's cross-origin write is refused with 403", async () => {
    const post = await createPost();
    const link = await createLink(post.id);
    const evil = { Origin: "https://evil.example" };
    expect((await admin.post(linksOf(post.id), {}, evil)).status).toBe(403);
    expect((await admin.delete(`${linksOf(post.id)}/${link.id}`, evil)).status).toBe(403);
    expect((await admin.get(linksOf(post.id))).json.links).toHaveLength(1);
    expect((await visitor().get(pathOf(link.url))).status).toBe(200);
  });

  it("other methods are refused with 405", async () => {
    const post = await createPost();
    expect((await admin.put(linksOf(post.id))).status).toBe(405);
    expect((await admin.get(`${linksOf(post.id)}/${NOWHERE}`)).status).toBe(405);
  });
});
