import { randomUUID } from "node:crypto";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOG_PAGE_SIZE } from "~/lib/blog-pages";
import { SITEMAP_URLS_PER_FILE } from "~/server/feeds.server";
import { freshDatabase, type FreshDatabase } from "../../tests/support/database";
import { startServer, type TestServer } from "../../tests/support/server";

/**
 * A site with more URLs than one sitemap file holds: /sitemap.xml becomes a
 * sitemap index (sitemaps.org), every file bounded, every URL in one file.
 * The posts are written straight into the database (the admin API would take
 * minutes for this many).
 */

const SITE = "https://www.example.test";
const POSTS = SITEMAP_URLS_PER_FILE + 50;
const SCHEDULED = 3;
let database: FreshDatabase;
let server: TestServer;

async function insertPosts(count: number, { published = true, future = false } = {}) {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => {
    const date = new Date(future ? now + 86_400_000 : now - (i + 1) * 60_000).toISOString();
    const id = randomUUID();
    return {
      id,
      title: `Post ${id}`,
      slug: `post-${id}`,
      excerpt: "An excerpt",
      content: "Body",
      content_html: "<p>Body</p>",
      category: "",
      author: "Ojai Technology Services",
      publish_date: date,
      read_time: "1 min read",
      published: published ? 1 : 0,
      header_image: null,
      created_at: date,
      updated_at: date,
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    await database.connection.db
      .insertInto("posts")
      .values(rows.slice(i, i + 500))
      .execute();
  }
  return rows.map((row) => row.slug);
}

let publicSlugs: string[];
beforeAll(async () => {
  database = await freshDatabase();
  publicSlugs = await insertPosts(POSTS);
  await insertPosts(SCHEDULED, { future: true });
  await insertPosts(2, { published: false });
  server = await startServer({ SITE_URL: SITE, DATABASE_URL: database.url });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await database?.cleanup();
});

const get = (path: string) => fetch(server.url + path);
const parser = new XMLParser();

describe("a sitemap of more URLs than one file holds", () => {
  it("is a sitemap index of bounded files that list every public URL once", async () => {
    const index = await get("/sitemap.xml");
    expect(index.status).toBe(200);
    const indexXml = await index.text();
    expect(XMLValidator.validate(indexXml)).toBe(true);
    const files = (parser.parse(indexXml).sitemapindex.sitemap as Array<{ loc: string }>).map((s) => s.loc);
    const listPages = Math.ceil(POSTS / BLOG_PAGE_SIZE);
    const expectedFiles = Math.ceil((2 + listPages + POSTS) / SITEMAP_URLS_PER_FILE);
    expect(files).toEqual(Array.from({ length: expectedFiles }, (_, i) => `${SITE}/sitemap.xml?page=${i + 1}`));

    const locs: string[] = [];
    for (const file of files) {
      const response = await get(file.slice(SITE.length));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("application/xml");
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const urls = (parser.parse(xml).urlset.url as Array<{ loc: string }>).map((u) => u.loc);
      expect(urls.length).toBeLessThanOrEqual(SITEMAP_URLS_PER_FILE);
      locs.push(...urls);
    }
    expect(locs.length).toBe(new Set(locs).size);
    expect(locs.slice(0, 3)).toEqual([`${SITE}/`, `${SITE}/about`, `${SITE}/blog`]);
    expect(locs).toContain(`${SITE}/blog?page=${listPages}`);
    expect(locs).not.toContain(`${SITE}/blog?page=${listPages + 1}`);
    // Every public post, newest first; no draft, no scheduled post.
    expect(locs.filter((loc) => loc.startsWith(`${SITE}/blog/`))).toEqual(
      publicSlugs.map((slug) => `${SITE}/blog/${slug}`),
    );
  });

  it("answers 404 for a file it does not have", async () => {
    for (const page of ["0", "3", "02", "x", ""]) {
      const response = await get(`/sitemap.xml?page=${page}`);
      expect(response.status, page).toBe(404);
    }
  });
});
