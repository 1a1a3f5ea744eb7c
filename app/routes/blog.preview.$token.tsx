import type { MetaDescriptor } from "react-router";
import { ArticleView } from "~/components/site/article-view";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { articleMeta, articleUrl } from "~/lib/article-seo";
import { formatDate } from "~/lib/dates";
import { PREVIEW_HEADERS, previewNotice } from "~/lib/share-links";
import { configContext, dbContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { findPreviewArticle } from "~/server/posts/index.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import type { Route } from "./+types/blog.preview.$token";

/**
 * /blog/preview/{token}: a share link (ADR 044). The article exactly as its
 * page /blog/{slug} shows it (the same ArticleView), with a one-line notice
 * above it and without Previous/Next (a draft has no place in the list yet). Never cached by anyone (the token is the only key), never indexed,
 * never sent on as a referrer. Unknown, malformed, expired and revoked tokens
 * are one and the same 404.
 */
export const handle = islandsPage;

/**
 * The page's headers. The server sets them again on every answer of a share
 * link (server/preview-headers.ts), the root error boundary's 404 included,
 * replacing the site's Referrer-Policy.
 */
export function headers() {
  return PREVIEW_HEADERS;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const now = siteDate();
  const found = await findPreviewArticle(context.get(dbContext), params.token, now);
  if (!found) throw new Response("Not found", { status: 404 });
  const { siteUrl } = context.get(configContext);
  const { companyName, socialUrls } = await siteSettingsFor(request);
  const { article, isPublic, expiresAt } = found;
  const scheduled = !isPublic && article.publishDate > now.toISOString();
  const notice = previewNotice({
    isPublic,
    scheduledFor: scheduled ? formatDate(article.publishDate) : null,
    expiresOn: formatDate(expiresAt),
  });
  return {
    article,
    notice,
    livePage: isPublic ? articleUrl("", article.slug) : null,
    company: { name: companyName, socialUrls },
    siteUrl,
  };
}

/**
 * The article's own tags with robots noindex, without the canonical link and
 * og:url: they would name /blog/{slug}, which is not public yet (a 404).
 */
export function meta({ data }: Route.MetaArgs): MetaDescriptor[] {
  if (!data) return [{ name: "robots", content: "noindex" }];
  const tags = articleMeta(
    { ...data.article, noindex: true },
    { siteUrl: data.siteUrl, companyName: data.company.name },
  ).filter((tag) => !("rel" in tag && tag.rel === "canonical") && !("property" in tag && tag.property === "og:url"));
  return [...tags, { name: "referrer", content: "no-referrer" }];
}

export default function PreviewPage({ loaderData }: Route.ComponentProps) {
  const { article, notice, livePage, company } = loaderData;
  return (
    <>
      <Island name="site-header" props={{ companyName: company.name }} />
      <main id="main" className="mx-auto max-w-3xl px-4 py-12">
        <Island name="page-status" props={{}} />
        <p
          data-testid="preview-notice"
          className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          {notice}
          {livePage && (
            <>
              {" "}
              <a href={livePage} className="font-medium underline underline-offset-2">
                Read it on its page
              </a>
            </>
          )}
        </p>
        <ArticleView article={article} previous={null} next={null} backTo="/blog" mode="page" withNav={false} />
      </main>
      <Island name="site-footer" props={{ companyName: company.name, socialUrls: company.socialUrls }} />
    </>
  );
}
