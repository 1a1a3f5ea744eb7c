import { LandingPage } from "~/components/site/landing-page";
import { insights } from "~/content/landing";
import { pagesText } from "~/content/pages";
import { landingPage } from "~/islands/page";
import { PREVIEW_HEADERS } from "~/lib/share-links";
import { configContext, dbContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { listPublicSummaries } from "~/server/posts/index.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { previewDocument } from "~/server/pages/index.server";
import { requirePagePreview } from "./page-preview-access.server";
import type { Route } from "./+types/pages.preview.landing";

/**
 * /pages/preview/landing[/{token}] (ADR 053): the landing page exactly as /
 * renders it, with the drafts of the landing document and of the contact
 * sentences. Signed in, or with a live share link of either; never cached,
 * never indexed (PREVIEW_HEADERS, set again by server/secret-page-headers.ts).
 */
export const handle = landingPage;

export function headers() {
  return PREVIEW_HEADERS;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  await requirePagePreview(request, db, ["landing", "contact"], params.token);
  const { siteUrl } = context.get(configContext);
  const [posts, settings, landing, contact] = await Promise.all([
    listPublicSummaries(db, { limit: insights.maxPosts, offset: 0, now: siteDate() }),
    siteSettingsFor(request),
    previewDocument(db, "landing"),
    previewDocument(db, "contact"),
  ]);
  return {
    posts,
    settings,
    siteUrl,
    content: landing.document,
    contactMessages: contact.document.messages,
    preview: landing.isDraft || contact.isDraft ? pagesText.previewBanner : pagesText.previewPublished,
  };
}

export function meta() {
  return [{ title: pagesText.preview }, { name: "robots", content: "noindex" }];
}

export default function LandingPreview({ loaderData }: Route.ComponentProps) {
  return <LandingPage {...loaderData} />;
}
