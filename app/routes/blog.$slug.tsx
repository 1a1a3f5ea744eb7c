import { ArticleView } from "~/components/site/article-view";
import { JsonLd } from "~/components/site/json-ld";
import { useBookingOpen } from "~/components/site/booking-open";
import { SubscribeForm } from "~/components/site/subscribe-form";
import { bookingPage } from "~/content/booking";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { articleMeta, blogPostingJsonLd } from "~/lib/article-seo";
import { blogPageHref, pageOfIndex } from "~/lib/blog-pages";
import { siteSettingsFor } from "~/server/settings/index.server";
import { configContext, connectionContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { articleCardFor } from "~/server/share-cards/index.server";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { findPublicArticle } from "~/server/posts/index.server";
import type { Route } from "./+types/blog.$slug";

/**
 * /blog/{slug}: the shareable article page (docs/product/contract.md#public-content), complete in the
 * server's HTML with its meta tags and JSON-LD. Unknown, draft and scheduled
 * slugs throw a 404 that the root error boundary renders as a real 404 page.
 */
export const handle = islandsPage;

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const found = await findPublicArticle(context.get(connectionContext), params.slug, siteDate());
  if (!found) throw new Response("Not found", { status: 404 });
  const { siteUrl } = context.get(configContext);
  const { companyName, socialUrls } = await siteSettingsFor(request);
  const company = { name: companyName, socialUrls };
  const { article, previous, next, index } = found;
  const card = await articleCardFor(context.get(connectionContext).db, { companyName, siteUrl }, article);
  return { article, previous, next, page: pageOfIndex(index), company, siteUrl, card };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return articleMeta(data.article, { siteUrl: data.siteUrl, companyName: data.company.name }, data.card);
}

export const links: Route.LinksFunction = () => [
  { rel: "alternate", type: "application/rss+xml", title: "Blog RSS feed", href: "/rss.xml" },
];

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { article, previous, next, page, company, siteUrl } = loaderData;
  const bookingOpen = useBookingOpen();
  return (
    <>
      <Island name="site-header" props={{ companyName: company.name }} />
      <main id="main" className="mx-auto max-w-3xl px-4 py-12">
        <Island name="page-status" props={{}} />
        <ArticleView
          article={article}
          previous={previous}
          next={next}
          backTo={blogPageHref(page)}
          mode="page"
          after={
            <>
              {bookingOpen && (
                <p className="mt-12 rounded-lg bg-brand-50 p-5 text-lg">
                  <a
                    href="/book"
                    className="font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900"
                  >
                    {bookingPage.articleLink}
                  </a>
                </p>
              )}
              <SubscribeForm
                idPrefix="article-newsletter"
                className={`${bookingOpen ? "mt-6" : "mt-12"} rounded-lg border border-neutral-300 p-5`}
              />
            </>
          }
        />
        <JsonLd data={blogPostingJsonLd(article, { siteUrl, companyName: company.name })} />
      </main>
      <Island name="site-footer" props={{ companyName: company.name, socialUrls: company.socialUrls }} />
    </>
  );
}
