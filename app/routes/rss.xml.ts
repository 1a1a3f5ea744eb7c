import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { buildRss, cacheableText, FEED_SIZE } from "~/server/feeds.server";
import { listFeedArticles } from "~/server/public-posts.server";
import { readSiteSettings } from "~/server/settings.server";
import type { Route } from "./+types/rss.xml";

export async function loader({ request }: Route.LoaderArgs) {
  const { siteUrl } = getConfig();
  const [articles, { companyName }] = await Promise.all([
    listFeedArticles(getDb(), { limit: FEED_SIZE, now: new Date() }),
    readSiteSettings(getDb()),
  ]);
  return cacheableText(request, buildRss({ siteUrl, companyName }, articles), "application/rss+xml; charset=utf-8");
}
