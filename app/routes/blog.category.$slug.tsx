import { JsonLd } from "~/components/site/json-ld";
import { ListPager } from "~/components/site/list-pager";
import { PostCard } from "~/components/site/post-card";
import { categoryPage } from "~/content/categories";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { BLOG_PAGE_SIZE, parseBlogPage } from "~/lib/blog-pages";
import { categoryFeedHref, categoryHref, isCategorySlug } from "~/lib/categories";
import { followLink } from "~/lib/page-transition";
import { pageMeta, shareMeta } from "~/lib/seo";
import { currentCategory, listCategorySummaries } from "~/server/posts/index.server";
import { configContext, connectionContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import { categoryCardFor } from "~/server/share-cards/index.server";
import type { Route } from "./+types/blog.category.$slug";

const notFound = () => new Response("Not found", { status: 404 });

/**
 * /blog/category/{slug} (docs/product/contract.md#categories, ADR 041): one category's public posts,
 * newest first, paged like /blog (`?page=N`). A malformed slug, a slug no
 * public post has and a page past the last are 404s; the cards open the
 * article at /blog/{slug}.
 */
export const handle = islandsPage;

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  // Bounded and shaped before any query.
  if (!isCategorySlug(params.slug)) throw notFound();
  const page = parseBlogPage(new URL(request.url).searchParams.get("page"));
  if (page === undefined) throw notFound();
  const connection = context.get(connectionContext);
  const { db } = connection;
  const now = siteDate();
  const category = await currentCategory(connection, params.slug, now);
  if (!category) throw notFound();
  const pages = Math.max(1, Math.ceil(category.total / BLOG_PAGE_SIZE));
  if (page > pages) throw notFound();
  const [posts, { companyName, socialUrls }] = await Promise.all([
    listCategorySummaries(db, category.slug, { limit: BLOG_PAGE_SIZE, offset: (page - 1) * BLOG_PAGE_SIZE, now }),
    siteSettingsFor(request),
  ]);
  const { siteUrl } = context.get(configContext);
  const card = await categoryCardFor(db, { companyName, siteUrl }, category);
  return { category, posts, page, pages, company: { name: companyName, socialUrls }, siteUrl, card };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const { category, page, company, siteUrl, card } = data;
  const title = categoryPage.title(category.name, page, company.name);
  const description = categoryPage.description(category.name, company.name);
  const url = `${siteUrl}${categoryHref(category.slug, page)}`;
  return [
    ...pageMeta({ title, description, canonical: url }),
    ...shareMeta({ title, description, url, siteUrl, siteName: company.name, card }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: categoryPage.feedTitle(category.name, company.name),
      href: categoryFeedHref(category.slug),
    },
  ];
}

/** schema.org BreadcrumbList: Blog, then the category. */
function breadcrumbJsonLd(siteUrl: string, name: string, slug: string) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", position: 1, name: categoryPage.blog, item: `${siteUrl}/blog` },
      { "@type": "ListItem", position: 2, name, item: `${siteUrl}${categoryHref(slug)}` },
    ],
  };
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, posts, page, pages, company, siteUrl } = loaderData;
  return (
    <>
      <Island name="site-header" props={{ companyName: company.name }} />
      <main id="main" className="mx-auto max-w-6xl px-4 py-12">
        <Island name="page-status" props={{}} />
        <nav aria-label={categoryPage.breadcrumb} className="text-sm">
          <ol className="flex flex-wrap items-center gap-2 text-neutral-700">
            <li>
              <a
                href="/blog"
                {...followLink({ loading: categoryPage.loading })}
                className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
              >
                {categoryPage.blog}
              </a>
            </li>
            <li aria-hidden="true">/</li>
            <li>
              <a href={categoryHref(category.slug)} aria-current="page" className="text-neutral-700">
                {category.name}
              </a>
            </li>
          </ol>
        </nav>
        <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{categoryPage.eyebrow}</p>
            <h1 className="mt-1 text-4xl font-bold">{categoryPage.heading(category.name)}</h1>
            <p className="mt-2 text-neutral-700">{categoryPage.count(category.total)}</p>
          </div>
          <a
            href={categoryFeedHref(category.slug)}
            className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
          >
            {categoryPage.feed}
          </a>
        </div>
        <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} currentCategory={category.slug} />
          ))}
        </div>
        <ListPager
          page={page}
          pages={pages}
          href={(n) => categoryHref(category.slug, n)}
          label={categoryPage.pages(category.name)}
        />
        <JsonLd data={breadcrumbJsonLd(siteUrl, category.name, category.slug)} />
      </main>
      <Island name="site-footer" props={{ companyName: company.name, socialUrls: company.socialUrls }} />
    </>
  );
}
