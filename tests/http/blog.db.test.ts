import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { daysAgo } from "../support/days";

/**
 * The public blog against a real server on a real database: server HTML of
 * /blog/{slug} with its meta tags, the in-place view, pagination, 404s,
 * scheduled publishing, RSS, sitemap and robots.txt.
 */

const SITE = "https://www.example.test";
let server: TestServer;
let admin: ApiClient;

const base = { excerpt: "An excerpt", content: "Body of the post.", category: "News", published: true };

async function createPost(post: Record<string, unknown>) {
  const result = await admin.post("/api/admin/posts", { ...base, ...post });
  expect(result.status, result.text).toBe(201);
  return result.json as { id: string; slug: string };
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { redirect: "manual", headers });
const html = async (path: string) => {
  const response = await get(path);
  return { status: response.status, headers: response.headers, body: await response.text() };
};

/** The attribute of the first <meta>/<link> tag matching `selector` (attribute=value). */
function tagAttribute(page: string, tag: "meta" | "link", key: string, value: string, attribute: string) {
  for (const match of page.matchAll(new RegExp(`<${tag}\\b[^>]*>`, "g"))) {
    const element = match[0];
    if (element.includes(`${key}="${value}"`))
      return new RegExp(`\\b${attribute}="([^"]*)"`).exec(element)?.[1]?.replace(/&amp;/g, "&");
  }
  return undefined;
}

/** The opening tag of the button whose text includes `label`. */
function buttonTag(page: string, label: string) {
  return [...page.matchAll(/(<button\b[^>]*>)((?:(?!<\/button>).)*)<\/button>/gs)].find((m) =>
    m[2]!.includes(label),
  )?.[1];
}

beforeAll(async () => {
  server = await startServer({ SITE_URL: SITE });
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

describe("an empty blog", () => {
  it("says so, and its feed and sitemap are still valid", async () => {
    const { status, body } = await html("/blog");
    expect(status).toBe(200);
    expect(body).toContain("No articles published yet. Check back soon!");
    const rss = await (await get("/rss.xml")).text();
    expect(XMLValidator.validate(rss)).toBe(true);
    expect(rss).not.toContain("<item>");
    expect(XMLValidator.validate(await (await get("/sitemap.xml")).text())).toBe(true);
  });
});

describe("with posts", () => {
  const slugs = Array.from({ length: 14 }, (_, i) => `post-${String(i + 1).padStart(2, "0")}`);
  beforeAll(async () => {
    // post-01 is the newest, post-14 the oldest.
    for (const [i, slug] of slugs.entries()) {
      await createPost({ title: `Post ${i + 1}`, slug, publishDate: daysAgo(i + 1) });
    }
    await createPost({
      title: 'Feature: <Tags> & "Quotes"',
      slug: "feature",
      excerpt: "The feature's excerpt & more",
      category: "Cloud",
      author: "Jane Doe",
      readTime: "7 min read",
      headerImage: "/images/abc123-1280.webp",
      publishDate: daysAgo(0.5),
      content:
        "## The plan\n\nA paragraph with [a link](/about) and **bold**.\n\n<script>alert('xss')</script>\n\n<img src=x onerror=\"alert(1)\">\n\n[bad](javascript:alert(1))",
    });
    await createPost({ title: "A draft", slug: "a-draft", published: false, publishDate: daysAgo(1) });
    await createPost({ title: "Later", slug: "later", publishDate: daysAgo(-30) });
  });

  describe("/blog/{slug} server HTML", () => {
    let page: { status: number; headers: Headers; body: string };
    beforeAll(async () => {
      page = await html("/blog/feature");
    });

    it("contains the article before any script runs", () => {
      expect(page.status).toBe(200);
      const body = page.body;
      const article = body.indexOf("<h2>The plan</h2>");
      expect(article).toBeGreaterThan(0);
      expect(body).toContain('A paragraph with <a href="/about">a link</a> and <strong>bold</strong>.');
      expect(body).toMatch(/<h1[^>]*>Feature: &lt;Tags&gt; &amp; (&quot;|")Quotes(&quot;|")<\/h1>/);
      expect(body).toContain("By <!-- -->Jane Doe");
      expect(body).toContain("7 min read");
      expect(body).toContain(">Cloud<");
      expect(body).toContain("Back to articles");
      expect(body).toMatch(/<img[^>]*src="\/images\/abc123-1280\.webp"/);
      // Everything above sits in the markup, not in data a script would render
      // later: it is inside <main>, and the page carries no router state (ADR 018).
      expect(body.indexOf("<main")).toBeLessThan(article);
      expect(article).toBeLessThan(body.indexOf("</main>"));
      expect(body).not.toContain("__reactRouterContext");
    });

    it("stores and serves the body sanitised", () => {
      const main = page.body.slice(page.body.indexOf("<main"), page.body.indexOf("</main>"));
      expect(main).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
      expect(main).not.toMatch(/onerror|javascript:/i);
    });

    it("has title, description, canonical, Open Graph and Twitter tags", () => {
      const body = page.body;
      expect(body).toMatch(
        /<title>Feature: &lt;Tags&gt; &amp; (&quot;|")Quotes(&quot;|") \| Ojai Technology Services<\/title>/,
      );
      expect(tagAttribute(body, "meta", "name", "description", "content")?.replace(/&#x27;|&#39;/g, "'")).toBe(
        "The feature's excerpt & more",
      );
      expect(tagAttribute(body, "link", "rel", "canonical", "href")).toBe(`${SITE}/blog/feature`);
      expect(tagAttribute(body, "meta", "property", "og:type", "content")).toBe("article");
      expect(tagAttribute(body, "meta", "property", "og:url", "content")).toBe(`${SITE}/blog/feature`);
      expect(tagAttribute(body, "meta", "property", "og:title", "content")).toMatch(
        /^Feature: &lt;Tags&gt; & (&quot;|")Quotes/,
      );
      expect(tagAttribute(body, "meta", "property", "og:description", "content")?.replace(/&#x27;|&#39;/g, "'")).toBe(
        "The feature's excerpt & more",
      );
      // Not an upload of this site: the share card is the site's own, a JPEG (ADR 073).
      const card = tagAttribute(body, "meta", "property", "og:image", "content");
      expect(card).toMatch(new RegExp(`^${SITE}/images/cards/[0-9a-f]{32}\\.jpg$`));
      expect(tagAttribute(body, "meta", "name", "twitter:card", "content")).toBe("summary_large_image");
      expect(tagAttribute(body, "meta", "name", "twitter:image", "content")).toBe(card);
      expect(tagAttribute(body, "meta", "name", "twitter:title", "content")).toMatch(/^Feature/);
      expect(tagAttribute(body, "link", "type", "application/rss+xml", "href")).toBe("/rss.xml");
    });

    it("has JSON-LD BlogPosting (a data block: no nonce, the page is the same for every visitor)", () => {
      const match = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page.body);
      expect(match).not.toBeNull();
      const data = JSON.parse(match![1]!);
      expect(data).toMatchObject({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: 'Feature: <Tags> & "Quotes"',
        description: "The feature's excerpt & more",
        url: `${SITE}/blog/feature`,
        image: [`${SITE}/images/abc123-1280.webp`],
        author: { "@type": "Person", name: "Jane Doe" },
        publisher: { "@type": "Organization", name: "Ojai Technology Services" },
        articleSection: "Cloud",
      });
      expect(new Date(data.datePublished).getTime()).toBeLessThan(Date.now());
      // "<" inside a value is escaped, so no value can close the script element.
      expect(match![1]).not.toContain("<");
    });

    it("Previous is disabled on the newest article; Next leads to the next older one", async () => {
      expect(buttonTag(page.body, "Previous")).toContain('disabled=""');
      expect(buttonTag(page.body, "Next")).not.toMatch(/ disabled=""/);
      expect(page.body).toMatch(/<form[^>]*action="\/blog\/post-01"[^>]*>\s*<button type="submit"[^>]*>.*?Next/s);
      const oldest = await html("/blog/post-14");
      expect(buttonTag(oldest.body, "Next")).toContain('disabled=""');
      expect(buttonTag(oldest.body, "Previous")).not.toMatch(/ disabled=""/);
      expect(oldest.body).toMatch(/<form[^>]*action="\/blog\/post-13"/);
      // Back to articles leads to the list page this article is on (15 public posts, 12 a page).
      expect(oldest.body).toMatch(/href="\/blog\?page=2"[^>]*>(<span[^>]*>[^<]*<\/span>)?\s*Back to articles/);
    });

    it.each(["does-not-exist", "a-draft", "later"])(
      "%s (unknown, draft, scheduled) is a real 404 page",
      async (slug) => {
        const { status, body, headers } = await html(`/blog/${slug}`);
        expect(status).toBe(404);
        expect(headers.get("content-type")).toMatch(/text\/html/);
        expect(body).toContain("Page not found");
        expect(body).toContain('<meta name="robots" content="noindex"/>');
        expect((await html(`/blog?article=${slug}`)).status).toBe(404);
      },
    );
  });

  describe("/blog list and in-place article", () => {
    it("shows 12 cards a page, newest first, with crawlable page links", async () => {
      const first = await html("/blog");
      const cards = [...first.body.matchAll(/<article id="post-([^"]+)"/g)].map((m) => m[1]);
      expect(cards).toEqual(["feature", ...slugs.slice(0, 11)]);
      expect(first.body).toContain('href="/blog?page=2"');
      expect(first.body).toContain('href="/blog/post-01"');
      expect(first.body).toMatch(/line-clamp-3[^>]*>An excerpt</);
      // The header image of a card is rendered (through PostImage) in the server HTML.
      expect(first.body).toMatch(
        /<article id="post-feature"[\s\S]*?<img[^>]*src="\/images\/abc123-1280\.webp"[\s\S]*?<\/article>/,
      );
      const second = await html("/blog?page=2");
      expect([...second.body.matchAll(/<article id="post-([^"]+)"/g)].map((m) => m[1])).toEqual(slugs.slice(11));
      expect(tagAttribute(second.body, "link", "rel", "canonical", "href")).toBe(`${SITE}/blog?page=2`);
      for (const bad of ["/blog?page=3", "/blog?page=0", "/blog?page=abc"]) expect((await get(bad)).status).toBe(404);
    });

    it("lists no draft or scheduled post", async () => {
      const pages = (await html("/blog")).body + (await html("/blog?page=2")).body;
      expect(pages).not.toContain("a-draft");
      expect(pages).not.toContain('id="post-later"');
    });

    it("opens an article in place with Back to articles and bounded Previous/Next", async () => {
      const { status, body } = await html("/blog?article=post-05");
      expect(status).toBe(200);
      expect(body).toContain("Back to articles");
      expect(body).toMatch(/<h1[^>]*>Post 5<\/h1>/);
      expect(buttonTag(body, "Previous")).toMatch(/value="post-04"/);
      expect(buttonTag(body, "Previous")).toMatch(/name="article"/);
      expect(buttonTag(body, "Next")).toMatch(/value="post-06"/);
      expect(buttonTag(body, "Next")).not.toMatch(/ disabled=""/);
      expect(tagAttribute(body, "link", "rel", "canonical", "href")).toBe(`${SITE}/blog/post-05`);
      const newest = await html("/blog?article=feature");
      expect(buttonTag(newest.body, "Previous")).toContain('disabled=""');
      const oldest = await html("/blog?article=post-14");
      expect(buttonTag(oldest.body, "Next")).toContain('disabled=""');
    });
  });

  describe("feeds", () => {
    it("/rss.xml is valid RSS 2.0 with the public posts, newest first", async () => {
      const response = await get("/rss.xml");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const feed = new XMLParser({ ignoreAttributes: false }).parse(xml);
      expect(feed.rss["@_version"]).toBe("2.0");
      const channel = feed.rss.channel;
      expect(channel.title).toBe("Ojai Technology Services Blog");
      expect(channel.link).toBe(`${SITE}/blog`);
      const items = channel.item as Array<Record<string, any>>;
      expect(items).toHaveLength(15);
      expect(items[0]!.title).toBe('Feature: <Tags> & "Quotes"');
      expect(items[0]!.link).toBe(`${SITE}/blog/feature`);
      expect(items[0]!.guid["#text"]).toBe(`${SITE}/blog/feature`);
      expect(new Date(items[0]!.pubDate).toUTCString()).toBe(items[0]!.pubDate);
      expect(items[0]!["dc:creator"]).toBe("Jane Doe");
      expect(items[0]!["content:encoded"]).toContain(`<a href="${SITE}/about">a link</a>`);
      expect(items[0]!["content:encoded"]).not.toMatch(/<script|onerror/);
      expect(items.map((i) => i.link)).not.toContain(`${SITE}/blog/a-draft`);
      expect(items.map((i) => i.link)).not.toContain(`${SITE}/blog/later`);
    });

    it("/sitemap.xml is valid and lists public pages and posts only", async () => {
      const response = await get("/sitemap.xml");
      expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const sitemap = new XMLParser().parse(xml);
      const locs = (sitemap.urlset.url as Array<{ loc: string }>).map((u) => u.loc);
      expect(locs).toEqual(
        expect.arrayContaining([
          `${SITE}/`,
          `${SITE}/about`,
          `${SITE}/privacy`,
          `${SITE}/blog`,
          `${SITE}/blog?page=2`,
          `${SITE}/blog/feature`,
          `${SITE}/blog/post-14`,
          // The category pages (ADR 041): News and Cloud.
          `${SITE}/blog/category/news`,
          `${SITE}/blog/category/cloud`,
        ]),
      );
      expect(locs).toHaveLength(5 + 2 + 15);
      expect(locs.some((l) => /admin|a-draft|later/.test(l))).toBe(false);
    });

    it("answers 304 to a matching If-None-Match", async () => {
      for (const path of ["/rss.xml", "/sitemap.xml", "/robots.txt"]) {
        const first = await get(path);
        const etag = first.headers.get("etag");
        expect(etag).toMatch(/^"[^"]+"$/);
        const again = await get(path, { "If-None-Match": etag! });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe("");
        expect((await get(path, { "If-None-Match": '"other"' })).status).toBe(200);
      }
    });

    it("/robots.txt keeps crawlers out of the admin and points at the sitemap", async () => {
      const response = await get("/robots.txt");
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await response.text();
      expect(text).toMatch(/^User-agent: \*$/m);
      expect(text).toMatch(/^Disallow: \/admin$/m);
      expect(text).toMatch(new RegExp(`^Sitemap: ${SITE}/sitemap.xml$`, "m"));
    });
  });

  it("a scheduled post appears everywhere at its moment, without a restart", async () => {
    const moment = Date.now() + 2500;
    await createPost({ title: "Right on time", slug: "right-on-time", publishDate: new Date(moment).toISOString() });
    const visible = async () => ({
      page: (await get("/blog/right-on-time")).status,
      inPlace: (await get("/blog?article=right-on-time")).status,
      list: (await html("/blog")).body.includes('id="post-right-on-time"'),
      rss: (await (await get("/rss.xml")).text()).includes("/blog/right-on-time"),
      sitemap: (await (await get("/sitemap.xml")).text()).includes("/blog/right-on-time"),
      api: ((await new ApiClient(server.url).get("/api/posts?limit=5")).json as Array<{ slug: string }>).some(
        (p) => p.slug === "right-on-time",
      ),
      apiOne: (await get("/api/posts/right-on-time")).status,
    });
    expect(await visible()).toEqual({
      page: 404,
      inPlace: 404,
      list: false,
      rss: false,
      sitemap: false,
      api: false,
      apiOne: 404,
    });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, moment - Date.now()) + 100));
    expect(await visible()).toEqual({
      page: 200,
      inPlace: 200,
      list: true,
      rss: true,
      sitemap: true,
      api: true,
      apiOne: 200,
    });
  });
});
