import { AboutPage } from "~/components/site/about-page";
import { islandsPage } from "~/islands/page";
import { pageMeta, shareMeta } from "~/lib/seo";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { configContext, connectionContext, dbContext } from "~/server/platform/context.server";
import { aboutCardFor } from "~/server/share-cards/index.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { publishedContent } from "~/server/pages/index.server";
import type { Route } from "./+types/about";

export const handle = islandsPage;

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(configContext);
  const [settings, content] = await Promise.all([
    siteSettingsFor(request),
    publishedContent(context.get(connectionContext)),
  ]);
  const site = { companyName: settings.companyName, siteUrl };
  const card = await aboutCardFor(context.get(dbContext), site, content.about.tagline);
  return { settings, siteUrl, content: content.about, card };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const { settings, siteUrl, card } = data;
  const title = `About | ${settings.companyName}`;
  const description = `${settings.companyName}: technology solutions for people, by people${
    settings.location ? `, from ${settings.location}` : ""
  }.`;
  const url = `${siteUrl}/about`;
  return [
    ...pageMeta({ title, description, canonical: url }),
    ...shareMeta({ title, description, url, siteUrl, siteName: settings.companyName, card }),
  ];
}

export default function About({ loaderData }: Route.ComponentProps) {
  return <AboutPage settings={loaderData.settings} content={loaderData.content} />;
}
