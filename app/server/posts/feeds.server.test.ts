import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { serializeJsonLd } from "~/lib/article-seo";
import type { Article } from "./post-shape.server";
import { BLOG_PAGE_SIZE } from "~/lib/blog-pages";
import {
  absoluteLinks,
  buildRss,
  buildSitemap,
  buildSitemapIndex,
  escapeXml,
  parseSitemapFile,
  SITEMAP_URLS_PER_FILE,
  sitemapLayout,
} from "./feeds.server";

const site = { siteUrl: "https://site.test", companyName: "Acme & Sons" };
/** The pages always in the sitemap before /blog: the home page, About and Privacy. */
const FIXED_PAGES = 3;
const article = (overrides: Partial<Article>): Article => ({
  id: "1",
  slug: "a",
  title: "A",
  excerpt: "E",
  category: "",
  author: "Acme & Sons",
  readTime: "5 min read",
  publishDate: "2026-01-02T03:04:05.000Z",
  updatedAt: "2026-01-02T03:04:05.000Z",
  headerImage: null,
  contentHtml: "<p>x</p>",
  metaTitle: null,
  metaDescription: null,
  headerImageAlt: null,
  noindex: false,
  ...overrides,
});

describe("feeds", () => {
  it("escapes markup and drops characters XML forbids", () => {
    expect(escapeXml(`<a href="x">&'</a>\u0001\u0008\uFFFF\uD800`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;",
    );
  });

  it("stays well-formed whatever the post text holds", () => {
    const rss = buildRss(site, [
      article({
        title: "]]> <![CDATA[ \u0000 & <b>",
        excerpt: "\u001b<script>",
        contentHtml: '<p>]]><a href="/x">y</a></p>',
        category: "C&D",
        headerImage: "/images/h.webp",
      }),
    ]);
    expect(XMLValidator.validate(rss)).toBe(true);
    const item = new XMLParser({ ignoreAttributes: false }).parse(rss).rss.channel.item;
    expect(item.title).toBe("]]> <![CDATA[  & <b>");
    expect(item["content:encoded"]).toBe('<p>]]><a href="https://site.test/x">y</a></p>');
    expect(item["media:content"]["@_url"]).toBe("https://site.test/images/h.webp");
  });

  it("gives the same bytes for the same posts (a stable ETag), whatever the clock", async () => {
    const posts = [article({})];
    const first = buildRss(site, posts);
    await new Promise((r) => setTimeout(r, 5));
    expect(buildRss(site, posts)).toBe(first);
  });

  it("links every list page in the sitemap", () => {
    const posts = Array.from({ length: 25 }, (_, i) => ({ slug: `p${i}`, lastModified: "2026-01-01T00:00:00.000Z" }));
    const layout = sitemapLayout(posts.length);
    expect(layout.files).toBe(1);
    const xml = buildSitemap(site, { pages: layout.file(1).pages, posts, lastChange: "2026-01-01T00:00:00.000Z" });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain("<loc>https://site.test/blog?page=3</loc>");
    expect(xml).not.toContain("page=4");
    expect(xml).toContain("<loc>https://site.test/blog</loc><lastmod>2026-01-01T00:00:00.000Z</lastmod>");
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs.slice(0, FIXED_PAGES + 1)).toEqual([
      "https://site.test/",
      "https://site.test/about",
      "https://site.test/privacy",
      "https://site.test/blog",
    ]);
  });

  it("splits the URLs into files of SITEMAP_URLS_PER_FILE, every URL in exactly one", () => {
    for (const postCount of [0, SITEMAP_URLS_PER_FILE - 3, SITEMAP_URLS_PER_FILE, 123_456]) {
      const layout = sitemapLayout(postCount);
      const pageUrls = FIXED_PAGES + Math.max(1, Math.ceil(postCount / BLOG_PAGE_SIZE));
      expect(layout.files).toBe(Math.ceil((pageUrls + postCount) / SITEMAP_URLS_PER_FILE));
      let pagesSeen = 0;
      let postsSeen = 0;
      for (let n = 1; n <= layout.files; n++) {
        const { pages, posts } = layout.file(n);
        expect(pages.from).toBe(Math.min(pagesSeen, pageUrls));
        expect(posts.offset).toBe(postsSeen);
        const size = pages.to - pages.from + posts.limit;
        expect(size).toBeLessThanOrEqual(SITEMAP_URLS_PER_FILE);
        if (n < layout.files) expect(size).toBe(SITEMAP_URLS_PER_FILE);
        pagesSeen = pages.to;
        postsSeen += posts.limit;
      }
      expect([pagesSeen, postsSeen]).toEqual([pageUrls, postCount]);
    }
  });

  it("puts the category pages between the list pages and the posts, every URL in exactly one file", () => {
    const cases: Array<[number, number]> = [
      [0, 0],
      [5, 3],
      [SITEMAP_URLS_PER_FILE - 10, 20],
      [SITEMAP_URLS_PER_FILE * 2, SITEMAP_URLS_PER_FILE + 7],
      [123_456, 4],
      [100_000, 100_000],
    ];
    for (const [postCount, categoryCount] of cases) {
      const layout = sitemapLayout(postCount, categoryCount);
      const pageUrls = FIXED_PAGES + Math.max(1, Math.ceil(postCount / BLOG_PAGE_SIZE));
      expect(layout.files).toBe(Math.ceil((pageUrls + categoryCount + postCount) / SITEMAP_URLS_PER_FILE));
      let pagesSeen = 0;
      let categoriesSeen = 0;
      let postsSeen = 0;
      for (let n = 1; n <= layout.files; n++) {
        const { pages, categories, posts } = layout.file(n);
        expect(pages.from).toBe(Math.min(pagesSeen, pageUrls));
        expect(categories.offset).toBe(categoriesSeen);
        expect(posts.offset).toBe(postsSeen);
        // In order: no category before the list pages are done, no post before the categories are.
        if (categories.limit > 0) expect(pages.to).toBe(pageUrls);
        if (posts.limit > 0) expect(categoriesSeen + categories.limit).toBe(categoryCount);
        const size = pages.to - pages.from + categories.limit + posts.limit;
        expect(size).toBeLessThanOrEqual(SITEMAP_URLS_PER_FILE);
        if (n < layout.files) expect(size).toBe(SITEMAP_URLS_PER_FILE);
        pagesSeen = pages.to;
        categoriesSeen += categories.limit;
        postsSeen += posts.limit;
      }
      expect([pagesSeen, categoriesSeen, postsSeen]).toEqual([pageUrls, categoryCount, postCount]);
    }
  });

  it("lists category pages by their plain URL with their last change", () => {
    const xml = buildSitemap(site, {
      pages: { from: 0, to: 0 },
      categories: [{ slug: "web-design", lastModified: "2026-01-01T00:00:00.000Z" }],
      posts: [],
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain(
      "<url><loc>https://site.test/blog/category/web-design</loc><lastmod>2026-01-01T00:00:00.000Z</lastmod></url>",
    );
  });

  it("describes a category's feed as that category's channel", () => {
    const rss = buildRss(site, [article({ category: "Web Design" })], {
      title: "Acme Blog: Web Design",
      path: "/blog/category/web-design",
      feedPath: "/blog/category/web-design/rss.xml",
      description: "Web design & more",
    });
    expect(XMLValidator.validate(rss)).toBe(true);
    const channel = new XMLParser({ ignoreAttributes: false }).parse(rss).rss.channel;
    expect(channel.title).toBe("Acme Blog: Web Design");
    expect(channel.link).toBe("https://site.test/blog/category/web-design");
    expect(channel.description).toBe("Web design & more");
    expect(channel["atom:link"]["@_href"]).toBe("https://site.test/blog/category/web-design/rss.xml");
  });

  it("indexes its files in a valid sitemap index", () => {
    const xml = buildSitemapIndex(site, 3);
    expect(XMLValidator.validate(xml)).toBe(true);
    const index = new XMLParser().parse(xml).sitemapindex;
    expect((index.sitemap as Array<{ loc: string }>).map((s) => s.loc)).toEqual([
      "https://site.test/sitemap.xml?page=1",
      "https://site.test/sitemap.xml?page=2",
      "https://site.test/sitemap.xml?page=3",
    ]);
  });

  it("names a sitemap file only by its plain number", () => {
    expect(["1", "2", "999999"].map(parseSitemapFile)).toEqual([1, 2, 999999]);
    for (const bad of ["", "0", "01", "-1", "1.0", "1e3", " 1", "1000000", "x"])
      expect(parseSitemapFile(bad)).toBeUndefined();
  });

  it("makes only site-relative links absolute", () => {
    expect(
      absoluteLinks("https://s.t", '<a href="/a"></a><a href="//evil/x"></a><img src="/i.png"><a href="https://o/">'),
    ).toBe('<a href="https://s.t/a"></a><a href="//evil/x"></a><img src="https://s.t/i.png"><a href="https://o/">');
  });
});

describe("JSON-LD", () => {
  it("cannot close its script element", () => {
    const text = serializeJsonLd({ headline: "</script><script>alert(1)</script>\u2028" });
    expect(text).not.toMatch(/[<>\u2028]/);
    expect(JSON.parse(text)).toEqual({ headline: "</script><script>alert(1)</script>\u2028" });
  });
});
