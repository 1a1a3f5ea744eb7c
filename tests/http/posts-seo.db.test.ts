import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";

/**
 * Per-post SEO (issue 18, docs/product/contract.md#post-seo-fields): metaTitle, metaDescription,
 * headerImageAlt (strings or null) and noindex (default false), through the
 * API and onto the public pages, sitemap and feed.
 */
let server: TestServer;
let admin: ApiClient;
const visitor = () => new ApiClient(server.url);

const base = {
  excerpt: "The excerpt",
  content: "Body text",
  category: "Cloud",
  published: true,
  publishDate: "2026-01-15T10:00:00.000Z",
};
let count = 0;
const create = (fields: Record<string, unknown> = {}) => {
  count += 1;
  return admin.post("/api/admin/posts", { title: `Post ${count}`, slug: `post-${count}`, ...base, ...fields });
};

beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

describe("the API", () => {
  it("leaves them null and false when a post is created without them, as before", async () => {
    const { status, json } = await create();
    expect(status).toBe(201);
    expect(json).toMatchObject({ metaTitle: null, metaDescription: null, headerImageAlt: null, noindex: false });
    const stored = await admin.get(`/api/admin/posts/${json.id}`);
    expect(stored.json).toMatchObject({ metaTitle: null, metaDescription: null, headerImageAlt: null, noindex: false });
    const listed = await admin.get("/api/admin/posts?limit=1");
    expect(listed.json[0]).toMatchObject({ metaTitle: null, noindex: false });
    const publicPost = await visitor().get(`/api/posts/${json.slug}`);
    expect(publicPost.json).toMatchObject({
      metaTitle: null,
      metaDescription: null,
      headerImageAlt: null,
      noindex: false,
    });
  });

  it("stores them trimmed, and blank as null", async () => {
    const { status, json } = await create({
      metaTitle: "  Cloud costs, explained  ",
      metaDescription: "How we cut a client's bill in half.",
      headerImageAlt: "   ",
      noindex: true,
    });
    expect(status).toBe(201);
    expect(json).toMatchObject({
      metaTitle: "Cloud costs, explained",
      metaDescription: "How we cut a client's bill in half.",
      headerImageAlt: null,
      noindex: true,
    });
  });

  it("a PUT replaces them like every other field (left out: null and false)", async () => {
    const created = await create({ metaTitle: "Kept?", noindex: true });
    const { title, slug } = created.json;
    const updated = await admin.put(`/api/admin/posts/${created.json.id}`, { title, slug, ...base });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ metaTitle: null, noindex: false });
    const again = await admin.put(`/api/admin/posts/${created.json.id}`, {
      title,
      slug,
      ...base,
      headerImage: "/images/x.webp",
      headerImageAlt: "A harbour at dawn",
    });
    expect(again.json).toMatchObject({ headerImageAlt: "A harbour at dawn", metaTitle: null });
  });

  it.each([
    [{ noindex: "yes" }, "noindex must be true or false"],
    [{ metaTitle: 42 }, "metaTitle must be text"],
    [{ metaTitle: "x".repeat(201) }, "metaTitle is too long (200 characters at most)"],
    [{ metaDescription: "x".repeat(501) }, "metaDescription is too long (500 characters at most)"],
    [{ headerImageAlt: ["a"] }, "headerImageAlt must be text"],
  ])("refuses %j with 400 naming the field", async (fields, message) => {
    const { status, json } = await create(fields);
    expect(status).toBe(400);
    expect(json).toEqual({ error: message });
  });
});

describe("the public pages", () => {
  it("an article shows its meta title, description and alt text", async () => {
    const upload = await admin.uploadPng(
      await sharp({ create: { width: 800, height: 500, channels: 3, background: "#336699" } })
        .png()
        .toBuffer(),
    );
    const { json } = await create({
      title: "A long working title",
      metaTitle: "Short & sharp",
      metaDescription: "What the search result says.",
      // An upload: its crop is the share card, which the alt text describes (ADR 073).
      headerImage: upload.url,
      headerImageAlt: "Boats in Ojai's morning light",
    });
    const { status, text } = await visitor().get(`/blog/${json.slug}`);
    expect(status).toBe(200);
    expect(text).toContain("<title>Short &amp; sharp</title>");
    expect(text).toContain('<meta name="description" content="What the search result says."/>');
    expect(text).toContain('<meta property="og:title" content="Short &amp; sharp"/>');
    expect(text).toContain('<meta property="og:image:alt" content="Boats in Ojai&#x27;s morning light"/>');
    expect(text).toMatch(/<img[^>]*alt="Boats in Ojai&#x27;s morning light"/);
    expect(text).not.toContain('name="robots"');
    // The page heading stays the post's own title.
    expect(text).toMatch(/<h1[^>]*>A long working title<\/h1>/);
  });

  it("without them, the title, the excerpt and the title again", async () => {
    const { json } = await create({ title: "Plain", headerImage: "/images/plain.webp" });
    const { text } = await visitor().get(`/blog/${json.slug}`);
    expect(text).toMatch(/<title>Plain \| [^<]+<\/title>/);
    expect(text).toContain('<meta name="description" content="The excerpt"/>');
    expect(text).toContain('<meta property="og:image:alt" content="Plain"/>');
  });

  it("a post hidden from search engines is noindex, out of the sitemap and the feed, and still on the blog and the API", async () => {
    const hidden = await create({ title: "Hidden one", noindex: true });
    const shown = await create({ title: "Shown one" });
    const page = await visitor().get(`/blog/${hidden.json.slug}`);
    expect(page.text).toContain('<meta name="robots" content="noindex"/>');
    const inPlace = await visitor().get(`/blog?article=${hidden.json.slug}`);
    expect(inPlace.text).toContain('<meta name="robots" content="noindex"/>');

    const sitemap = await visitor().get("/sitemap.xml");
    expect(sitemap.text).not.toContain(`/blog/${hidden.json.slug}<`);
    expect(sitemap.text).toContain(`/blog/${shown.json.slug}<`);
    const rss = await visitor().get("/rss.xml");
    expect(rss.text).not.toContain(`/blog/${hidden.json.slug}<`);
    expect(rss.text).toContain(`/blog/${shown.json.slug}<`);

    const blog = await visitor().get("/blog");
    expect(blog.text).toContain(`?article=${hidden.json.slug}"`);
    const api = await visitor().get("/api/posts");
    expect(api.json.map((post: { slug: string }) => post.slug)).toContain(hidden.json.slug);
  });
});
