import { getConfig } from "~/server/platform/config.server";
import { getDb } from "~/server/db/index.server";
import { buildRss, cacheableText, FEED_SIZE } from "~/server/posts/index.server";
import { listFeedArticles } from "~/server/posts/index.server";
import { readSiteSettings } from "~/server/settings/index.server";
import type { Route } from "./+types/rss.xml";

export async function loader({ request }: Route.LoaderArgs) {
  const { siteUrl } = getConfig();
  const [articles, { companyName }] = await Promise.all([
    listFeedArticles(getDb(), { limit: FEED_SIZE, now: new Date() }),
    readSiteSettings(getDb()),
  ]);
  return cacheableText(request, buildRss({ siteUrl, companyName }, articles), "application/rss+xml; charset=utf-8");
}
