import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { daysAgo } from "../support/days";

let server: TestServer;
let admin: ApiClient;

const base = { excerpt: "An excerpt", content: "Some **markdown**", category: "News" };

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
  const posts = [
    { title: "Oldest", slug: "oldest", published: true, publishDate: daysAgo(3) },
    { title: "Newest", slug: "newest", published: true, publishDate: daysAgo(1) },
    { title: "Middle", slug: "middle", published: true, publishDate: daysAgo(2) },
    { title: "Draft", slug: "draft", published: false, publishDate: daysAgo(1) },
    { title: "Scheduled", slug: "scheduled", published: true, publishDate: daysAgo(-30) },
  ];
  for (const post of posts) expect((await admin.post("/api/admin/posts", { ...base, ...post })).status).toBe(201);
});

afterAll(() => server?.stop());

describe("GET /api/posts", () => {
  it("lists only public posts, newest publishDate first, in the contract's shape", async () => {
    const { status, json, headers } = await new ApiClient(server.url).get("/api/posts");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/application\/json/);
    expect(json.map((p: { slug: string }) => p.slug)).toEqual(["newest", "middle", "oldest"]);
    expect(Object.keys(json[0]).sort()).toEqual(
      [
        "author",
        "category",
        "content",
        "createdAt",
        "excerpt",
        "headerImage",
        "headerImageAlt",
        "id",
        "metaDescription",
        "metaTitle",
        "noindex",
        "publishDate",
        "published",
        "readTime",
        "slug",
        "title",
        "updatedAt",
      ].sort(),
    );
    expect(json[0]).toMatchObject({ published: true, headerImage: null, readTime: "5 min read" });
    expect(new Date(json[0].publishDate).toISOString()).toBe(json[0].publishDate);
  });

  it("pages with limit and offset", async () => {
    const client = new ApiClient(server.url);
    expect((await client.get("/api/posts?limit=2")).json.map((p: { slug: string }) => p.slug)).toEqual([
      "newest",
      "middle",
    ]);
    expect((await client.get("/api/posts?limit=2&offset=2")).json.map((p: { slug: string }) => p.slug)).toEqual([
      "oldest",
    ]);
    expect((await client.get("/api/posts?offset=5")).json).toEqual([]);
    expect((await client.get("/api/posts?limit=100")).status).toBe(200);
  });

  it.each(["limit=0", "limit=101", "limit=abc", "limit=1.5", "limit=-1", "offset=-1", "offset=x", "limit="])(
    "answers 400 for %s",
    async (query) => {
      const { status, json } = await new ApiClient(server.url).get(`/api/posts?${query}`);
      expect(status).toBe(400);
      expect(json.error).toMatch(/limit|offset/);
    },
  );
});

describe("GET /api/posts/{slug}", () => {
  it("returns a public post", async () => {
    const { status, json } = await new ApiClient(server.url).get("/api/posts/middle");
    expect(status).toBe(200);
    expect(json).toMatchObject({ slug: "middle", title: "Middle", content: "Some **markdown**" });
  });

  it.each(["draft", "scheduled", "unknown-slug"])("answers 404 for %s", async (slug) => {
    const { status, json } = await new ApiClient(server.url).get(`/api/posts/${slug}`);
    expect(status).toBe(404);
    expect(json).toEqual({ error: "Post not found" });
  });
});

describe("scheduled publishing", () => {
  it("a published post with a future date becomes public when its moment comes, without a restart", async () => {
    const publishDate = new Date(Date.now() + 1500).toISOString();
    const created = await admin.post("/api/admin/posts", {
      ...base,
      title: "Soon",
      slug: "soon",
      published: true,
      publishDate,
    });
    expect(created.status).toBe(201);
    const client = new ApiClient(server.url);
    expect((await client.get("/api/posts/soon")).status).toBe(404);
    expect((await client.get("/api/posts")).json.some((p: { slug: string }) => p.slug === "soon")).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await client.get("/api/posts/soon")).status).toBe(200);
    expect((await client.get("/api/posts")).json[0].slug).toBe("soon");
  });
});

describe("unknown API paths", () => {
  it("answer 404 JSON rather than the landing page", async () => {
    const { status, json } = await new ApiClient(server.url).get("/api/nothing-here");
    expect(status).toBe(404);
    expect(json).toEqual({ error: "Not found" });
  });
});
