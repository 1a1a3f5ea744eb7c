import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, cacheStored, cacheStoredLines, startServer, type TestServer } from "../support/server";
import { daysAgo } from "../support/days";

/**
 * Category pages (docs/product/contract.md#categories, ADR 041) against the built server on a real
 * database: /blog/category/{slug} with its paging, meta tags and 404s, its
 * feed, the sitemap's category URLs, the links from cards and articles, and
 * the page cache.
 */

const SITE = "https://www.example.test";
let server: TestServer;
let admin: ApiClient;

const base = { excerpt: "An excerpt", content: "Body of the post.", published: true };

async function createPost(post: Record<string, unknown>) {
  const result = await admin.post("/api/admin/posts", { ...base, ...post });
  expect(result.status, result.text).toBe(201);
  return result.json as { id: string; slug: string };
}

const get = (path: string) => fetch(server.url + path, { redirect: "manual" });
const html = async (path: string) => {
  const response = await get(path);
  return { status: response.status, headers: response.headers, body: await response.text() };
};
const cardSlugs = (body: string) => [...body.matchAll(/<article id="post-([a-z0-9-]+)"/g)].map((m) => m[1]);
const linkHref = (body: string, rel: string) =>
  new RegExp(`<link[^>]*rel="${rel}"[^>]*href="([^"]*)"`).exec(body)?.[1]?.replace(/&amp;/g, "&");

beforeAll(async () => {
  server = await startServer({ SITE_URL: SITE, LOG_LEVEL: "debug" });
  admin = new ApiClient(server.url);
  await admin.signIn();
  // Web Design: two spellings, newest first wd-1 (spelled "web design") ... wd-3.
  await createPost({ title: "WD 1", slug: "wd-1", category: "web design", publishDate: daysAgo(1) });
  await createPost({ title: "WD 2", slug: "wd-2", category: "Web Design", publishDate: daysAgo(2), noindex: true });
  await createPost({ title: "WD 3", slug: "wd-3", category: "Web  Design!", publishDate: daysAgo(3) });
  await createPost({ title: "WD draft", slug: "wd-draft", category: "Web Design", published: false });
  await createPost({ title: "WD later", slug: "wd-later", category: "Web Design", publishDate: daysAgo(-3) });
  await createPost({ title: "Cloud 1", slug: "cloud-1", category: "Cloud", publishDate: daysAgo(4) });
  await createPost({ title: "No category", slug: "none", category: "", publishDate: daysAgo(5) });
  await createPost({ title: "Symbols", slug: "symbols", category: "!!!", publishDate: daysAgo(6) });
  await createPost({ title: "Drafts only", slug: "drafty", category: "Drafty", published: false });
  await createPost({
    title: "Hidden only",
    slug: "hidden",
    category: "Hidden",
    noindex: true,
    publishDate: daysAgo(7),
  });
  // 14 posts in one category: two pages of 12.
  for (let i = 1; i <= 14; i++) {
    await createPost({ title: `Paged ${i}`, slug: `paged-${i}`, category: "Paged", publishDate: daysAgo(10 + i) });
  }
});
afterAll(() => server?.stop());

describe("a category page", () => {
  it("lists the category's public posts of every spelling, newest first, headed by the newest's name", async () => {
    const { status, headers, body } = await html("/blog/category/web-design");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toContain("public");
    // Hidden from search engines (noindex) still listed, as on /blog; drafts and scheduled posts not.
    expect(cardSlugs(body)).toEqual(["wd-1", "wd-2", "wd-3"]);
    expect(body).toMatch(/<h1[^>]*>web design<\/h1>/);
    expect(body).toContain("<title>web design | Blog | ");
    expect(linkHref(body, "canonical")).toBe(`${SITE}/blog/category/web-design`);
    expect(linkHref(body, "alternate")).toBe("/blog/category/web-design/rss.xml");
    expect(body).toContain('<meta name="description"');
    expect(body).toContain('"@type":"BreadcrumbList"');
    expect(body).toContain('href="/blog"');
    // The cards open the article at its own page, not in place.
    expect(body).toContain('href="/blog/wd-1"');
    expect(body).not.toContain("?article=");
    expect(body).not.toContain('<meta name="robots"');
  });

  it("pages like /blog: ?page=N, canonical without ?page on page 1, 404 past the last or malformed", async () => {
    const first = await html("/blog/category/paged");
    expect(cardSlugs(first.body)).toEqual(Array.from({ length: 12 }, (_, i) => `paged-${i + 1}`));
    expect(first.body).toContain('href="/blog/category/paged?page=2"');
    const second = await html("/blog/category/paged?page=2");
    expect(second.status).toBe(200);
    expect(cardSlugs(second.body)).toEqual(["paged-13", "paged-14"]);
    expect(linkHref(second.body, "canonical")).toBe(`${SITE}/blog/category/paged?page=2`);
    expect(second.body).toContain("<title>Paged (page 2) | Blog | ");
    expect(linkHref((await html("/blog/category/paged?page=1")).body, "canonical")).toBe(`${SITE}/blog/category/paged`);
    for (const page of ["3", "0", "-1", "x", "", "1.5", "9999999"]) {
      expect((await get(`/blog/category/paged?page=${page}`)).status, page).toBe(404);
    }
  });

  it("is a real 404 page for a slug with no public posts, or a malformed or overlong one", async () => {
    for (const path of [
      "/blog/category/nothing-here",
      "/blog/category/drafty",
      "/blog/category/Web-Design",
      "/blog/category/web--design",
      `/blog/category/${"a".repeat(201)}`,
      `/blog/category/${"a".repeat(5000)}`,
    ]) {
      const { status, body } = await html(path);
      expect(status, path).toBe(404);
      expect(body, path).toContain("Page not found");
    }
  });

  it("exists for a category of hidden posts only, which the sitemap leaves out", async () => {
    expect((await get("/blog/category/hidden")).status).toBe(200);
  });
});

describe("the category feed", () => {
  it("is RSS of the category's public posts without the hidden ones", async () => {
    const response = await get("/blog/category/web-design/rss.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/rss+xml");
    const xml = await response.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const channel = new XMLParser({ ignoreAttributes: false }).parse(xml).rss.channel;
    expect(channel.link).toBe(`${SITE}/blog/category/web-design`);
    expect(channel["atom:link"]["@_href"]).toBe(`${SITE}/blog/category/web-design/rss.xml`);
    const items = [channel.item].flat() as Array<{ link: string }>;
    expect(items.map((item) => item.link)).toEqual([`${SITE}/blog/wd-1`, `${SITE}/blog/wd-3`]);
  });

  it("is a 404 where the page is one", async () => {
    for (const path of ["/blog/category/nothing/rss.xml", "/blog/category/drafty/rss.xml", "/blog/category/A/rss.xml"])
      expect((await get(path)).status, path).toBe(404);
    const hidden = await (await get("/blog/category/hidden/rss.xml")).text();
    expect(hidden).not.toContain("<item>");
  });
});

describe("links and the sitemap", () => {
  it("cards on /blog and articles link their category's page; no link inside another", async () => {
    const blog = (await html("/blog")).body;
    expect(blog).toContain('href="/blog/category/web-design"');
    expect(blog).toContain('href="/blog/category/cloud"');
    // "!!!" has no page: its name stays plain text.
    expect(blog).not.toContain('href="/blog/category/"');
    expect(blog).not.toMatch(/<a\b(?:(?!<\/a>).)*<a\b/s);
    for (const path of ["/blog/cloud-1", "/blog?article=cloud-1"]) {
      const article = (await html(path)).body;
      expect(article, path).toMatch(/<a[^>]*href="\/blog\/category\/cloud"[^>]*>Cloud<\/a>/);
    }
    // On the category's own page its cards do not link it again.
    expect((await html("/blog/category/cloud")).body).not.toContain("More in Cloud");
  });

  it("lists the category pages with an indexable public post in the sitemap", async () => {
    const xml = await (await get("/sitemap.xml")).text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    const categories = locs.filter((loc) => loc!.includes("/blog/category/"));
    expect(categories).toEqual([
      `${SITE}/blog/category/cloud`,
      `${SITE}/blog/category/paged`,
      `${SITE}/blog/category/web-design`,
    ]);
    // Between the list pages and the posts.
    expect(locs.indexOf(`${SITE}/blog/category/cloud`)).toBeGreaterThan(locs.indexOf(`${SITE}/blog`));
    expect(locs.indexOf(`${SITE}/blog/category/web-design`)).toBeLessThan(locs.indexOf(`${SITE}/blog/wd-1`));
  });
});

describe("the page cache", () => {
  it("keeps a category's page and feed, stores no 404, and follows content changes", async () => {
    const since = cacheStoredLines(server).length;
    for (const path of ["/blog/category/cloud", "/blog/category/paged?page=2", "/blog/category/cloud/rss.xml"]) {
      expect((await get(path)).status).toBe(200);
      await cacheStored(server, path);
      const again = await get(path);
      expect(again.headers.get("x-cache"), path).toBe("hit");
    }
    for (const path of ["/blog/category/nothing-here", "/blog/category/paged?page=9"]) {
      expect((await get(path)).status).toBe(404);
      expect((await get(path)).headers.get("x-cache"), path).not.toBe("hit");
    }
    expect(
      cacheStoredLines(server)
        .slice(since)
        .map((line) => line.key),
    ).not.toContain("/blog/category/nothing-here");

    // The only Cloud post moves to Research: the cached page gives way at
    // once, to a redirect, since Cloud was in effect renamed (ADR 054).
    const posts = (await admin.get("/api/admin/posts?limit=100")).json as Array<{ id: string; slug: string }>;
    const cloud = posts.find((post) => post.slug === "cloud-1")!;
    const full = (await admin.get(`/api/admin/posts/${cloud.id}`)).json as Record<string, unknown>;
    expect((await admin.put(`/api/admin/posts/${cloud.id}`, { ...full, category: "Research" })).status).toBe(200);
    const moved = await get("/blog/category/cloud");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/blog/category/research");
    expect((await get("/blog/category/cloud/rss.xml")).headers.get("location")).toBe("/blog/category/research/rss.xml");
    const research = await html("/blog/category/research");
    expect(research.status).toBe(200);
    expect(cardSlugs(research.body)).toEqual(["cloud-1"]);
  });
});
