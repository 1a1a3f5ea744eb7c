import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { buildSitemap, cacheableText } from "~/server/feeds.server";
import { listPublicUrls } from "~/server/public-posts.server";
import type { Route } from "./+types/sitemap.xml";

export async function loader({ request }: Route.LoaderArgs) {
  const { company, siteUrl } = getConfig();
  const posts = await listPublicUrls(getDb(), new Date());
  return cacheableText(
    request,
    buildSitemap({ siteUrl, companyName: company.name }, posts),
    "application/xml; charset=utf-8",
  );
}
