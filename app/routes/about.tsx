import { AboutPage } from "~/components/site/about-page";
import { islandsPage } from "~/islands/page";
import { pageMeta } from "~/lib/seo";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { configContext, connectionContext } from "~/server/platform/context.server";
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
  return { settings, siteUrl, content: content.about };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return pageMeta({
    title: `About | ${data.settings.companyName}`,
    description: `${data.settings.companyName}: technology solutions for people, by people${
      data.settings.location ? `, from ${data.settings.location}` : ""
    }.`,
    canonical: `${data.siteUrl}/about`,
  });
}

export default function About({ loaderData }: Route.ComponentProps) {
  return <AboutPage settings={loaderData.settings} content={loaderData.content} />;
}
