import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { serializeJsonLd } from "~/lib/article-seo";
import type { Article } from "./public-posts.server";
import { absoluteLinks, buildRss, buildSitemap, escapeXml } from "./feeds.server";

const site = { siteUrl: "https://site.test", companyName: "Acme & Sons" };
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
    const xml = buildSitemap(site, posts);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain("<loc>https://site.test/blog?page=3</loc>");
    expect(xml).not.toContain("page=4");
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
