import { createHash } from "node:crypto";
import { articleUrl, absoluteUrl } from "~/lib/article-seo";
import { BLOG_PAGE_SIZE, blogPageHref } from "~/lib/blog-pages";
import { categoryHref } from "~/lib/categories";
import type { Article, PostUrl } from "./post-shape.server";

/** Items in the RSS feed: the newest posts, full text. */
export const FEED_SIZE = 20;

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text or attribute content for XML; also drops characters XML 1.0 forbids. */
export function escapeXml(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex -- these are the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\v\f\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
      .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)
  );
}

interface Site {
  siteUrl: string;
  companyName: string;
}

/** Feed readers show the HTML away from the site: site-relative links and images get the origin. */
export function absoluteLinks(siteUrl: string, html: string): string {
  return html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${siteUrl}/`);
}

/** What a feed is about: the whole blog by default, or one category (ADR 041). */
interface FeedChannel {
  title: string;
  /** Site-relative: the list page the feed follows and the feed's own address. */
  path: string;
  feedPath: string;
  description: string;
}

/** The blog's own feed, /rss.xml. */
const blogChannel = (companyName: string): FeedChannel => ({
  title: `${companyName} Blog`,
  path: "/blog",
  feedPath: "/rss.xml",
  description: `Articles from ${companyName} on web design, cloud systems and research.`,
});

/** RSS 2.0 of the newest public posts (content:encoded carries the sanitised HTML). */
export function buildRss(site: Site, articles: Article[], channel = blogChannel(site.companyName)): string {
  const blogUrl = `${site.siteUrl}${channel.path}`;
  // The newest change among the items, not the clock: the same posts give the same bytes (and ETag).
  const lastChange = articles.reduce(
    (latest, a) => [a.publishDate, a.updatedAt].reduce((x, y) => (y > x ? y : x), latest),
    "",
  );
  const items = articles.map((a) => {
    const url = articleUrl(site.siteUrl, a.slug);
    return [
      "    <item>",
      `      <title>${escapeXml(a.title)}</title>`,
      `      <link>${escapeXml(url)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
      `      <pubDate>${new Date(a.publishDate).toUTCString()}</pubDate>`,
      `      <dc:creator>${escapeXml(a.author)}</dc:creator>`,
      a.category ? `      <category>${escapeXml(a.category)}</category>` : "",
      `      <description>${escapeXml(a.excerpt)}</description>`,
      a.headerImage
        ? `      <media:content url="${escapeXml(absoluteUrl(site.siteUrl, a.headerImage))}" medium="image"/>`
        : "",
      `      <content:encoded>${escapeXml(absoluteLinks(site.siteUrl, a.contentHtml))}</content:encoded>`,
      "    </item>",
    ]
      .filter(Boolean)
      .join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">',
    "  <channel>",
    `    <title>${escapeXml(channel.title)}</title>`,
    `    <link>${escapeXml(blogUrl)}</link>`,
    `    <description>${escapeXml(channel.description)}</description>`,
    "    <language>en-us</language>",
    `    <atom:link href="${escapeXml(`${site.siteUrl}${channel.feedPath}`)}" rel="self" type="application/rss+xml"/>`,
    lastChange ? `    <lastBuildDate>${new Date(lastChange).toUTCString()}</lastBuildDate>` : "",
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * URLs per sitemap file. sitemaps.org allows 50,000; at 10,000 a file is about
 * 1 MB, which the page cache keeps (an entry is at most 1/16 of its 64 MiB).
 * A site with more URLs gets a sitemap index at /sitemap.xml whose files are
 * /sitemap.xml?page=1, 2, ... (ADR 027).
 */
export const SITEMAP_URLS_PER_FILE = 10_000;

/** The site's pages that are always there, first in the sitemap: the home page, About, Privacy. */
const FIXED_PAGE_PATHS = ["/", "/about", "/privacy"] as const;

/** The position of /blog, the first of the blog's list pages, after the fixed pages. */
const FIRST_LIST_PAGE = FIXED_PAGE_PATHS.length;

/**
 * The site's URLs in sitemap order, the fixed pages and the blog's list
 * pages first, then the category pages (by slug, ADR 041), then every public
 * post newest first, and how they split into files of SITEMAP_URLS_PER_FILE.
 */
export function sitemapLayout(postCount: number, categoryCount = 0) {
  const listPages = Math.max(1, Math.ceil(postCount / BLOG_PAGE_SIZE));
  const pageUrls = FIXED_PAGE_PATHS.length + listPages;
  const categoryEnd = pageUrls + categoryCount;
  const total = categoryEnd + postCount;
  const files = Math.ceil(total / SITEMAP_URLS_PER_FILE);
  /**
   * The URLs of file `file` (1-based): which page URLs (by position), which
   * category pages (offset, limit, by slug) and which posts (offset, limit, newest first).
   */
  const file = (n: number) => {
    const start = (n - 1) * SITEMAP_URLS_PER_FILE;
    const end = Math.min(start + SITEMAP_URLS_PER_FILE, total);
    const categoryStart = Math.min(Math.max(start, pageUrls), categoryEnd);
    const postStart = Math.max(start, categoryEnd);
    return {
      pages: { from: Math.min(start, pageUrls), to: Math.min(end, pageUrls) },
      categories: {
        offset: categoryStart - pageUrls,
        limit: Math.max(0, Math.min(end, categoryEnd) - categoryStart),
      },
      posts: { offset: postStart - categoryEnd, limit: Math.max(0, end - postStart) },
    };
  };
  return { files, file };
}

/** A `?page=` of /sitemap.xml: digits, 1 or more, no leading zero; anything else names no file. */
export function parseSitemapFile(value: string): number | undefined {
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
}

/** Whether a file's page URLs hold /blog, whose last change is the newest post's. */
export const holdsFirstListPage = (pages: { from: number; to: number }) =>
  pages.from <= FIRST_LIST_PAGE && pages.to > FIRST_LIST_PAGE;

/**
 * One sitemap file: the page URLs at positions [pages.from, pages.to) (the
 * fixed pages, then /blog's list pages, the first of them last modified at
 * `lastChange`), then `categories`' pages and `posts`.
 */
export function buildSitemap(
  site: Site,
  {
    pages,
    categories = [],
    posts,
    lastChange,
  }: { pages: { from: number; to: number }; categories?: PostUrl[]; posts: PostUrl[]; lastChange?: string },
): string {
  const url = (loc: string, lastmod?: string) =>
    `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ""}</url>`;
  const pageUrl = (position: number) =>
    position < FIRST_LIST_PAGE
      ? url(`${site.siteUrl}${FIXED_PAGE_PATHS[position]}`)
      : url(
          `${site.siteUrl}${blogPageHref(position - FIRST_LIST_PAGE + 1)}`,
          position === FIRST_LIST_PAGE ? lastChange : undefined,
        );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...Array.from({ length: pages.to - pages.from }, (_, i) => pageUrl(pages.from + i)),
    ...categories.map((c) => url(`${site.siteUrl}${categoryHref(c.slug)}`, c.lastModified)),
    ...posts.map((p) => url(articleUrl(site.siteUrl, p.slug), p.lastModified)),
    "</urlset>",
    "",
  ].join("\n");
}

/** A sitemap index naming the site's `files` sitemap files. */
export function buildSitemapIndex(site: Site, files: number): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...Array.from(
      { length: files },
      (_, i) => `  <sitemap><loc>${escapeXml(`${site.siteUrl}/sitemap.xml?page=${i + 1}`)}</loc></sitemap>`,
    ),
    "</sitemapindex>",
    "",
  ].join("\n");
}

/** Crawlers may read everything public; the admin and its API stay out. */
export function buildRobots(site: Site): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /api/admin",
    "",
    `Sitemap: ${site.siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

/**
 * A text answer with a strong ETag of its bytes: a client that already has
 * them gets 304 and no body. `max-age=0, must-revalidate` keeps caches asking,
 * so a scheduled post shows up in feeds at its moment.
 */
export function cacheableText(
  request: Request,
  body: string,
  contentType: string,
  cacheControl = "public, max-age=0, must-revalidate",
): Response {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  const headers = { "Content-Type": contentType, "Cache-Control": cacheControl, ETag: etag };
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (
    ifNoneMatch &&
    ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")
  ) {
    return new Response(null, { status: 304, headers: { "Cache-Control": cacheControl, ETag: etag } });
  }
  return new Response(body, { headers });
}
