import { ArticleView } from "~/components/site/article-view";
import { ListPager } from "~/components/site/list-pager";
import { PostCard } from "~/components/site/post-card";
import { SearchForm } from "~/components/site/search-form";
import { SubscribeForm } from "~/components/site/subscribe-form";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { articleMeta } from "~/lib/article-seo";
import { blogPageHref, BLOG_PAGE_SIZE, pageOfIndex, parseBlogPage } from "~/lib/blog-pages";
import { pageMeta, shareMeta } from "~/lib/seo";
import { siteSettingsFor } from "~/server/settings/index.server";
import { configContext, connectionContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { articleCardFor, pageCardFor } from "~/server/share-cards/index.server";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { currentListShape, findPublicArticle, listPublicSummaries } from "~/server/posts/index.server";
import type { Route } from "./+types/blog";

const notFound = () => new Response("Not found", { status: 404 });

/**
 * /blog: the paginated list (?page=N, crawlable links), and the in-place
 * article view (?article={slug}) that a card opens. The in-place view has its
 * own URL so that Back and reload keep the visitor where they were.
 */
export const handle = islandsPage;

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(configContext);
  const { companyName, socialUrls } = await siteSettingsFor(request);
  const company = { name: companyName, socialUrls };
  const params = new URL(request.url).searchParams;
  const connection = context.get(connectionContext);
  const site = { companyName, siteUrl };
  const now = siteDate();

  const slug = params.get("article");
  if (slug !== null) {
    const found = await findPublicArticle(connection, slug, now);
    if (!found) throw notFound();
    const { article, previous, next, index } = found;
    return {
      view: "article" as const,
      card: await articleCardFor(connection.db, site, article),
      article,
      previous,
      next,
      index,
      page: pageOfIndex(index),
      company,
      siteUrl,
    };
  }

  const page = parseBlogPage(params.get("page"));
  if (page === undefined) throw notFound();
  const shape = await currentListShape(connection, now);
  const { total } = shape;
  const pages = Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE));
  if (page > pages) throw notFound();
  const offset = (page - 1) * BLOG_PAGE_SIZE;
  const posts = await listPublicSummaries(connection.db, { limit: BLOG_PAGE_SIZE, offset, now, shape });
  const card = await pageCardFor(connection.db, site, "blog");
  return { view: "list" as const, posts, page, pages, total, company, siteUrl, card };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const site = { siteUrl: data.siteUrl, companyName: data.company.name };
  if (data.view === "article") return articleMeta(data.article, site, data.card);
  const title = `Blog${data.page > 1 ? ` (page ${data.page})` : ""} | ${data.company.name}`;
  const description = `Articles from ${data.company.name} on web design, cloud systems and research.`;
  const url = `${data.siteUrl}${blogPageHref(data.page)}`;
  return [
    ...pageMeta({ title, description, canonical: url }),
    ...shareMeta({ title, description, url, siteUrl: data.siteUrl, siteName: data.company.name, card: data.card }),
  ];
}

export const links: Route.LinksFunction = () => [
  { rel: "alternate", type: "application/rss+xml", title: "Blog RSS feed", href: "/rss.xml" },
];

export default function Blog({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Island name="site-header" props={{ companyName: loaderData.company.name }} />
      <main id="main" className="mx-auto max-w-6xl px-4 py-12">
        <Island name="page-status" props={{}} />
        {loaderData.view === "article" ? (
          <div className="mx-auto max-w-3xl">
            <ArticleView
              article={loaderData.article}
              previous={loaderData.previous}
              next={loaderData.next}
              backTo={blogPageHref(loaderData.page)}
              mode="in-place"
              after={
                <SubscribeForm
                  idPrefix="article-newsletter"
                  className="mt-12 rounded-lg border border-neutral-300 p-5"
                />
              }
            />
          </div>
        ) : (
          <BlogList posts={loaderData.posts} page={loaderData.page} pages={loaderData.pages} />
        )}
      </main>
      <Island
        name="site-footer"
        props={{ companyName: loaderData.company.name, socialUrls: loaderData.company.socialUrls }}
      />
    </>
  );
}

function BlogList({
  posts,
  page,
  pages,
}: {
  posts: Extract<Route.ComponentProps["loaderData"], { view: "list" }>["posts"];
  page: number;
  pages: number;
}) {
  return (
    <div>
      <h1 className="text-4xl font-bold">Blog</h1>
      <SearchForm className="mt-6 max-w-xl" />
      {posts.length === 0 ? (
        <p className="mt-8 text-lg text-neutral-700">No articles published yet. Check back soon!</p>
      ) : (
        <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} inPlaceHref={`/blog?article=${encodeURIComponent(post.slug)}`} />
          ))}
        </div>
      )}
      <ListPager page={page} pages={pages} href={blogPageHref} label="Blog pages" />
      <SubscribeForm idPrefix="blog-newsletter" inline className="mt-12 rounded-lg bg-brand-50 p-6" />
    </div>
  );
}
