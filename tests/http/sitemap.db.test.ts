import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOG_PAGE_SIZE } from "~/lib/blog-pages";
import { SITEMAP_URLS_PER_FILE } from "~/server/posts/feeds.server";
import { freshDatabase, type FreshDatabase } from "../support/database";
import { generatePosts, ONE_LINE_CONTENT } from "../support/generate-posts";
import { startServer, type TestServer } from "../support/server";

/**
 * A site with more URLs than one sitemap file holds: /sitemap.xml becomes a
 * sitemap index (sitemaps.org), every file bounded, every URL in one file.
 * The posts are written straight into the database (the admin API would take
 * minutes for this many); scheduled posts are left out as blog.db.test.ts shows.
 */

const SITE = "https://www.example.test";
// generatePosts publishes the odd ones: just over one file's worth of public posts, and drafts between them.
const GENERATED = 2 * (SITEMAP_URLS_PER_FILE + 50);
const POSTS = GENERATED / 2;
let database: FreshDatabase;
let server: TestServer;

beforeAll(async () => {
  database = await freshDatabase();
  await generatePosts(database.url, GENERATED, { content: ONE_LINE_CONTENT });
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
    // The home page, About and Privacy, then the list pages and the posts.
    const expectedFiles = Math.ceil((3 + listPages + POSTS) / SITEMAP_URLS_PER_FILE);
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
    expect(locs.slice(0, 4)).toEqual([`${SITE}/`, `${SITE}/about`, `${SITE}/privacy`, `${SITE}/blog`]);
    expect(locs).toContain(`${SITE}/blog?page=${listPages}`);
    expect(locs).not.toContain(`${SITE}/blog?page=${listPages + 1}`);
    // Every public post, newest first; no draft.
    const publicPosts = Array.from({ length: POSTS }, (_, k) => GENERATED - 1 - 2 * k);
    expect(locs.filter((loc) => loc.startsWith(`${SITE}/blog/`))).toEqual(
      publicPosts.map((i) => `${SITE}/blog/generated-post-${String(i).padStart(5, "0")}`),
    );
  });

  it("answers 404 for a file it does not have", async () => {
    for (const page of ["0", "3", "02", "x", ""]) {
      const response = await get(`/sitemap.xml?page=${page}`);
      expect(response.status, page).toBe(404);
    }
  });
});
