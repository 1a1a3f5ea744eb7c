import { AboutPage } from "~/components/site/about-page";
import { pagesText } from "~/content/pages";
import { islandsPage } from "~/islands/page";
import { PREVIEW_HEADERS } from "~/lib/share-links";
import { dbContext } from "~/server/platform/context.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { previewDocument } from "~/server/pages/index.server";
import { requirePagePreview } from "./page-preview-access.server";
import type { Route } from "./+types/pages.preview.about";

/**
 * /pages/preview/about[/{token}] (ADR 053): the About page exactly as /about
 * renders it, with the draft of the about document. Signed in, or with a
 * live share link; never cached, never indexed.
 */
export const handle = islandsPage;

export function headers() {
  return PREVIEW_HEADERS;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  await requirePagePreview(request, db, ["about"], params.token);
  const [settings, about] = await Promise.all([siteSettingsFor(request), previewDocument(db, "about")]);
  return {
    settings,
    content: about.document,
    preview: about.isDraft ? pagesText.previewBanner : pagesText.previewPublished,
  };
}

export function meta() {
  return [{ title: pagesText.preview }, { name: "robots", content: "noindex" }];
}

export default function AboutPreview({ loaderData }: Route.ComponentProps) {
  return <AboutPage {...loaderData} />;
}
