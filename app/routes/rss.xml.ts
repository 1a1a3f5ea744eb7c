import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { buildRss, cacheableText, FEED_SIZE } from "~/server/feeds.server";
import { listFeedArticles } from "~/server/public-posts.server";
import type { Route } from "./+types/rss.xml";

export async function loader({ request }: Route.LoaderArgs) {
  const { company, siteUrl } = getConfig();
  const articles = await listFeedArticles(getDb(), { limit: FEED_SIZE, now: new Date() });
  return cacheableText(
    request,
    buildRss({ siteUrl, companyName: company.name }, articles),
    "application/rss+xml; charset=utf-8",
  );
}
