import { configContext, dbContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { buildRss, cacheableText, FEED_SIZE, listFeedArticles } from "~/server/posts/index.server";
import { readSiteSettings } from "~/server/settings/index.server";
import type { Route } from "./+types/rss.xml";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(configContext);
  const [articles, { companyName }] = await Promise.all([
    listFeedArticles(context.get(dbContext), { limit: FEED_SIZE, now: siteDate() }),
    readSiteSettings(context.get(dbContext)),
  ]);
  return cacheableText(request, buildRss({ siteUrl, companyName }, articles), "application/rss+xml; charset=utf-8");
}
