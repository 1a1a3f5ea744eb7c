import { createHash } from "node:crypto";
import { articleUrl, absoluteUrl } from "~/lib/article-seo";
import { BLOG_PAGE_SIZE, blogPageHref } from "~/lib/blog-pages";
import type { Article, PostUrl } from "./public-posts.server";

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

/** RSS 2.0 of the newest public posts (content:encoded carries the sanitised HTML). */
export function buildRss(site: Site, articles: Article[]): string {
  const blogUrl = `${site.siteUrl}/blog`;
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
    `    <title>${escapeXml(`${site.companyName} Blog`)}</title>`,
    `    <link>${escapeXml(blogUrl)}</link>`,
    `    <description>${escapeXml(`Articles from ${site.companyName} on web design, cloud systems and research.`)}</description>`,
    "    <language>en-us</language>",
    `    <atom:link href="${escapeXml(`${site.siteUrl}/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    lastChange ? `    <lastBuildDate>${new Date(lastChange).toUTCString()}</lastBuildDate>` : "",
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** Sitemap of the public pages, the blog's list pages and every public post. */
export function buildSitemap(site: Site, posts: PostUrl[]): string {
  const pages = Math.max(1, Math.ceil(posts.length / BLOG_PAGE_SIZE));
  const url = (loc: string, lastmod?: string) =>
    `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ""}</url>`;
  const newest = posts.reduce((latest, p) => (p.lastModified > latest ? p.lastModified : latest), "");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    url(`${site.siteUrl}/`),
    url(`${site.siteUrl}/about`),
    ...Array.from({ length: pages }, (_, i) =>
      url(`${site.siteUrl}${blogPageHref(i + 1)}`, i === 0 && newest ? newest : undefined),
    ),
    ...posts.map((p) => url(articleUrl(site.siteUrl, p.slug), p.lastModified)),
    "</urlset>",
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
