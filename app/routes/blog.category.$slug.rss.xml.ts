import { categoryPage } from "~/content/categories";
import { categoryFeedHref, categoryHref } from "~/lib/categories";
import {
  currentCategory,
  listCategoryFeedArticles,
  buildRss,
  cacheableText,
  FEED_SIZE,
} from "~/server/posts/index.server";
import { configContext, connectionContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { readSiteSettings } from "~/server/settings/index.server";
import type { Route } from "./+types/blog.category.$slug.rss.xml";

/**
 * /blog/category/{slug}/rss.xml (docs/product/contract.md#categories, ADR 041): the category's
 * newest public posts, posts hidden from search engines left out. A 404
 * exactly where the category's page is one.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const connection = context.get(connectionContext);
  const { db } = connection;
  const now = siteDate();
  const category = await currentCategory(connection, params.slug, now);
  if (!category) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const [articles, { companyName }] = await Promise.all([
    listCategoryFeedArticles(db, category.slug, { limit: FEED_SIZE, now }),
    readSiteSettings(db),
  ]);
  const channel = {
    title: categoryPage.feedTitle(category.name, companyName),
    path: categoryHref(category.slug),
    feedPath: categoryFeedHref(category.slug),
    description: categoryPage.description(category.name, companyName),
  };
  return cacheableText(
    request,
    buildRss({ siteUrl: context.get(configContext).siteUrl, companyName }, articles, channel),
    "application/rss+xml; charset=utf-8",
  );
}
