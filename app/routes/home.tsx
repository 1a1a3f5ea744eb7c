import { LandingPage } from "~/components/site/landing-page";
import { hero, insights } from "~/content/landing";
import { landingPage } from "~/islands/page";
import { pageMeta, shareMeta } from "~/lib/seo";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { configContext, connectionContext, dbContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { listPublicSummaries } from "~/server/posts/index.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { pageCardFor } from "~/server/share-cards/index.server";
import { data } from "react-router";
import { publishedContent } from "~/server/pages/index.server";
import type { Route } from "./+types/home";

export const handle = landingPage;

/**
 * The same for every visitor: kept by the page cache, revalidated by
 * browsers. The catch-all's answer also says noindex (ADR 054).
 */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const robots = loaderHeaders.get("X-Robots-Tag");
  return { "Cache-Control": PUBLIC_CACHE_CONTROL, ...(robots ? { "X-Robots-Tag": robots } : {}) };
}

/**
 * `/` and `/home` answer 200. Any other path (the catch-all route, which has
 * a splat) shows the same landing page, as docs/product/interface.md#routes
 * asks, but answers 404 with noindex: not a soft 404 (ADR 054).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(configContext);
  const [posts, settings, content] = await Promise.all([
    listPublicSummaries(context.get(dbContext), { limit: insights.maxPosts, offset: 0, now: siteDate() }),
    siteSettingsFor(request),
    publishedContent(context.get(connectionContext)),
  ]);
  const notFound = "*" in params;
  const site = { companyName: settings.companyName, siteUrl };
  const card = notFound ? undefined : await pageCardFor(context.get(dbContext), site, "landing");
  const page = { posts, settings, siteUrl, notFound, content: content.landing, card };
  return notFound ? data(page, { status: 404, headers: { "X-Robots-Tag": "noindex" } }) : page;
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const title = `${data.settings.companyName} | Technology Solutions For People + By People`;
  const description = data.settings.metaDescription ?? undefined;
  const tags = pageMeta({
    title,
    description,
    canonical: data.notFound ? undefined : `${data.siteUrl}/`,
    noindex: data.notFound,
  });
  if (data.notFound) return tags;
  const { siteUrl, settings, card } = data;
  return [
    ...tags,
    // The owner may clear the description; a shared link still needs one.
    ...shareMeta({
      title,
      description: description ?? hero.lead,
      url: `${siteUrl}/`,
      siteUrl,
      siteName: settings.companyName,
      card,
    }),
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <LandingPage {...loaderData} />;
}
