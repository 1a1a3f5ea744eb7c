import { PrivacyPage } from "~/components/site/privacy-page";
import { privacyPage } from "~/content/privacy";
import { islandsPage } from "~/islands/page";
import { pageMeta, shareMeta } from "~/lib/seo";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { configContext, connectionContext, dbContext } from "~/server/platform/context.server";
import { privacyCardFor } from "~/server/share-cards/index.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { publishedPage } from "~/server/pages/index.server";
import type { Route } from "./+types/privacy";

/**
 * /privacy (issue 47): the owner's privacy document (Admin > Pages), the
 * notice of what the site keeps first. Read from the published documents
 * the process keeps per content version, as /about is, with the date it was
 * published; the page cache keeps the answer, so a hit reads nothing.
 */
export const handle = islandsPage;

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(configContext);
  const [settings, privacy] = await Promise.all([
    siteSettingsFor(request),
    publishedPage(context.get(connectionContext), "privacy"),
  ]);
  const site = { companyName: settings.companyName, siteUrl };
  const card = await privacyCardFor(context.get(dbContext), site, privacy.document.heading);
  return { settings, siteUrl, content: privacy.document, publishedAt: privacy.publishedAt, card };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const { content, settings, siteUrl, card } = data;
  const title = `${content.heading} | ${settings.companyName}`;
  const description = privacyPage.description(settings.companyName);
  const url = `${siteUrl}/privacy`;
  return [
    ...pageMeta({ title, description, canonical: url }),
    ...shareMeta({ title, description, url, siteUrl, siteName: settings.companyName, card }),
  ];
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return <PrivacyPage {...loaderData} />;
}
