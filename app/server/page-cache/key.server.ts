import { parseBlogPage } from "~/lib/blog-pages";
import { categoryFeedHref, categoryHref, isCategorySlug } from "~/lib/categories";
import { parseImageVariantPath } from "~/lib/images";
import { normaliseQuery, MAX_QUERY_CHARS, parseSearchPage, searchHref } from "~/lib/search-query";
import { isWellFormedSlug } from "~/lib/slug";
import { parseSitemapFile } from "~/server/posts/index.server";
import { parsePageParams } from "~/server/platform/paging.server";

/**
 * The page cache's key for a request URL (ADR 022), or undefined when the
 * answer is not to be cached. The key names the answer, not the spelling: it
 * keeps only the query parameters the route reads, in one order and in the
 * form the route parses them to, so junk cannot make new entries.
 *
 * - Only the canonical spelling of a page is cached (the one the site links
 *   to): `/blog/`, `/Blog`, `/%62log`, `//blog`, `/x/../blog` are answered by
 *   the app as before, never from or into the cache.
 * - Every other path (the landing page, docs/product/interface.md#routes) shares one entry,
 *   `LANDING_KEY`, when it is plainly spelled and its first segment is none of
 *   the app's routes; otherwise it is not cached.
 * - A parameter value the route refuses gives no key; the route answers 400
 *   or 404, which is never stored anyway.
 */
export function cacheKeyOf(url: string): string | undefined {
  const path = pathOf(url);
  switch (path) {
    case "/":
    case "/home":
    case "/about":
    case "/privacy":
    case "/rss.xml":
    case "/robots.txt":
      return path;
    case "/sitemap.xml":
      return sitemapKey(searchParams(url));
    case "/blog":
      return blogKey(searchParams(url));
    case "/blog/search":
      return searchKey(searchParams(url));
    case "/api/posts": {
      // Any offset is a 200 (an empty list past the end): see isOpenEndedKey.
      const page = parsePageParams(new URL(url, BASE));
      return page instanceof Response ? undefined : `/api/posts?limit=${page.limit}&offset=${page.offset}`;
    }
  }
  const slash = path.indexOf("/", 1);
  const first = (slash === -1 ? path.slice(1) : path.slice(1, slash)).toLowerCase();
  if (ROUTED_FIRST_SEGMENTS.has(first)) {
    if (path.startsWith(CATEGORY_PREFIX)) return categoryKey(path.slice(CATEGORY_PREFIX.length), url);
    if (path.startsWith("/blog/") && isWellFormedSlug(path.slice(6))) return path;
    if (path.startsWith("/api/posts/") && isWellFormedSlug(path.slice(11))) return path;
    if (path.startsWith("/images/") && parseImageVariantPath(path)) return path;
    return undefined;
  }
  return PLAIN_PATH.test(path) ? LANDING_KEY : undefined;
}

/** The path of a request URL, without its query. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** The one entry of every path that only the catch-all route answers; no URL is spelled so. */
export const LANDING_KEY = "(any other path)";

/** The catch-all's answer is a 404 (the landing page, noindex: ADR 054), kept like a 200. */
export const keepsNotFound = (key: string): boolean => key === LANDING_KEY;

/**
 * The first path segments of every route in app/routes.ts but the catch-all,
 * of what Express serves before the cache (/assets), and of React Router's
 * own endpoint for lazy route discovery (/__manifest, whose public JSON would
 * otherwise be stored as the landing page), lower case: React Router matches
 * paths without regard to case. A path whose first segment is none of these
 * can only be the catch-all's (key.server.test.ts checks the list
 * against app/routes.ts).
 */
export const ROUTED_FIRST_SEGMENTS = new Set([
  "",
  "home",
  "blog",
  "about",
  "privacy",
  // /book and a booking's page change with every booking: never cached (ADR 071).
  "book",
  // The sign-up page answers a form; a subscriber's links are secrets (ADR 072): never cached.
  "newsletter",
  "pages",
  "admin",
  "rss.xml",
  "sitemap.xml",
  "robots.txt",
  "healthz",
  "images",
  "api",
  "assets",
  "__manifest",
]);

/**
 * Letters, digits, "_" and "-" between single slashes: nothing the URL parser
 * or React Router would rewrite (no "%", ".", "\\", empty or dot segments), so
 * the first segment seen here is the one the router matches, and no file name
 * (they all have a dot).
 */
const PLAIN_PATH = /^(?:\/[\w-]+)+\/?$/;

/** React Router's request URL is `new URL(origin + originalUrl)`; its query parses the same on any origin. */
const BASE = "http://cache-key.invalid";
const searchParams = (url: string) => new URL(url, BASE).searchParams;

/** /blog reads `article` (the in-place view, `page` then unread) or else `page`. */
function blogKey(params: URLSearchParams): string | undefined {
  const article = params.get("article");
  if (article !== null) return isWellFormedSlug(article) ? `/blog?article=${article}` : undefined;
  const page = parseBlogPage(params.get("page"));
  if (page === undefined) return undefined;
  return page === 1 ? "/blog" : `/blog?page=${page}`;
}

/**
 * /blog/search reads `q`, as normalised (what the page shows), and with a
 * `q`, `page` (ADR 042). A `q` too long or a page out of range gives no key.
 */
function searchKey(params: URLSearchParams): string | undefined {
  const q = params.get("q");
  if (q === null) return "/blog/search";
  if (q.length > MAX_QUERY_CHARS) return undefined;
  const text = normaliseQuery(q);
  if (text === "") return "/blog/search";
  const page = parseSearchPage(params.get("page"));
  return page === undefined ? undefined : searchHref(text, page);
}

const CATEGORY_PREFIX = "/blog/category/";
const CATEGORY_FEED = "/rss.xml";

/**
 * A category's page reads `page` as /blog does (page 1 as the plain path);
 * its feed reads nothing (ADR 041). Only slugs that could have a page get a
 * key, and only a 200 is stored, so the entries are bounded by the site's
 * categories and their pages.
 */
function categoryKey(rest: string, url: string): string | undefined {
  if (rest.endsWith(CATEGORY_FEED)) {
    const slug = rest.slice(0, -CATEGORY_FEED.length);
    return isCategorySlug(slug) ? categoryFeedHref(slug) : undefined;
  }
  if (!isCategorySlug(rest)) return undefined;
  const page = parseBlogPage(searchParams(url).get("page"));
  return page === undefined ? undefined : categoryHref(rest, page);
}

/** /sitemap.xml reads `page` (a file of a sitemap index); a value that names no file gets 404. */
function sitemapKey(params: URLSearchParams): string | undefined {
  const page = params.get("page");
  if (page === null) return "/sitemap.xml";
  const file = parseSitemapFile(page);
  return file === undefined ? undefined : `/sitemap.xml?page=${file}`;
}

/**
 * Keys that visitors can vary without end, each a valid answer: the public
 * API's pages past the first (any offset answers 200) and the blog's search
 * results (any words answer 200, ADR 042). The page cache keeps only a few
 * hundred of them (`maxOpenEnded`), so a flood of offsets or queries cannot
 * push the pages out.
 */
export function isOpenEndedKey(key: string): boolean {
  return (key.startsWith("/api/posts?") && !key.endsWith("&offset=0")) || key.startsWith("/blog/search?");
}
