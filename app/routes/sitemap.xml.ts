import { configContext, connectionContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import {
  buildSitemap,
  buildSitemapIndex,
  cacheableText,
  parseSitemapFile,
  sitemapLayout,
  countSitemapCategories,
  holdsFirstListPage,
  listCategoryUrls,
  currentListShape,
  lastPublicChange,
  listPublicUrls,
} from "~/server/posts/index.server";
import type { Route } from "./+types/sitemap.xml";

const XML = "application/xml; charset=utf-8";

/**
 * /sitemap.xml: every public URL, or past SITEMAP_URLS_PER_FILE of them a
 * sitemap index of /sitemap.xml?page=N, each file bounded.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { company, siteUrl } = context.get(configContext);
  const site = { siteUrl, companyName: company.name };
  const connection = context.get(connectionContext);
  const { db } = connection;
  const now = siteDate();
  const page = new URL(request.url).searchParams.get("page");
  const [shape, categoryCount] = await Promise.all([
    currentListShape(connection, now),
    countSitemapCategories(db, now),
  ]);
  const layout = sitemapLayout(shape.total, categoryCount);
  if (page === null && layout.files > 1) return cacheableText(request, buildSitemapIndex(site, layout.files), XML);
  const n = page === null ? 1 : parseSitemapFile(page);
  if (n === undefined || n > layout.files) {
    return new Response("No such sitemap file", { status: 404, headers: { "Content-Type": "text/plain" } });
  }
  const { pages, categories, posts } = layout.file(n);
  const [categoryUrls, urls, lastChange] = await Promise.all([
    categories.limit > 0 ? listCategoryUrls(db, { ...categories, now }) : [],
    posts.limit > 0 ? listPublicUrls(db, { ...posts, now, shape }) : [],
    holdsFirstListPage(pages) ? lastPublicChange(db, now) : undefined,
  ]);
  return cacheableText(request, buildSitemap(site, { pages, categories: categoryUrls, posts: urls, lastChange }), XML);
}
