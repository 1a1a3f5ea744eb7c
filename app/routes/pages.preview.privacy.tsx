import { PrivacyPage } from "~/components/site/privacy-page";
import { pagesText } from "~/content/pages";
import { islandsPage } from "~/islands/page";
import { PREVIEW_HEADERS } from "~/lib/share-links";
import { dbContext } from "~/server/platform/context.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { previewDocument } from "~/server/pages/index.server";
import { requirePagePreview } from "./page-preview-access.server";
import type { Route } from "./+types/pages.preview.privacy";

/**
 * /pages/preview/privacy[/{token}] (ADR 053): the privacy page exactly as
 * /privacy renders it, with the draft of the privacy document (no "Last
 * updated": the draft is not published). Signed in, or with a live share
 * link; never cached, never indexed.
 */
export const handle = islandsPage;

export function headers() {
  return PREVIEW_HEADERS;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  await requirePagePreview(request, db, ["privacy"], params.token);
  const [settings, privacy] = await Promise.all([siteSettingsFor(request), previewDocument(db, "privacy")]);
  return {
    settings,
    content: privacy.document,
    preview: privacy.isDraft ? pagesText.previewBanner : pagesText.previewPublished,
  };
}

export function meta() {
  return [{ title: pagesText.preview }, { name: "robots", content: "noindex" }];
}

export default function PrivacyPreview({ loaderData }: Route.ComponentProps) {
  return <PrivacyPage {...loaderData} />;
}
