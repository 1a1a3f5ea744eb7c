import { Link } from "react-router";
import { PostCard } from "~/components/site/post-card";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import { pageMeta } from "~/lib/seo";
import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { countPublicPosts, listPublicPosts } from "~/server/posts.server";
import type { Route } from "./+types/blog";

export const PAGE_SIZE = 12;

export async function loader({ request }: Route.LoaderArgs) {
  const { company, siteUrl } = getConfig();
  const pageParam = new URL(request.url).searchParams.get("page") ?? "1";
  const page = /^\d{1,6}$/.test(pageParam) && Number(pageParam) >= 1 ? Number(pageParam) : NaN;
  if (Number.isNaN(page)) throw new Response("Not found", { status: 404 });
  const db = getDb();
  const now = new Date();
  const [posts, total] = await Promise.all([
    listPublicPosts(db, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, now }),
    countPublicPosts(db, now),
  ]);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (page > pages) throw new Response("Not found", { status: 404 });
  return { posts, page, pages, company, siteUrl };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return pageMeta({
    title: `Blog${data.page > 1 ? ` (page ${data.page})` : ""} | ${data.company.name}`,
    description: `Articles from ${data.company.name} on web design, cloud systems and research.`,
    canonical: `${data.siteUrl}/blog${data.page > 1 ? `?page=${data.page}` : ""}`,
  });
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { posts, page, pages, company } = loaderData;
  return (
    <>
      <SiteHeader companyName={company.name} />
      <main id="main" className="mx-auto max-w-6xl px-4 py-12">
        <h1 className="text-4xl font-bold">Blog</h1>
        {posts.length === 0 ? (
          <p className="mt-8 text-lg text-neutral-700">No articles published yet. Check back soon!</p>
        ) : (
          <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post) => (
              <PostCard key={post.id} post={post} />
            ))}
          </div>
        )}
        {pages > 1 && (
          <nav aria-label="Blog pages" className="mt-10 flex items-center justify-between">
            {page > 1 ? (
              <Link to={page === 2 ? "/blog" : `/blog?page=${page - 1}`} rel="prev" className="font-medium text-brand-700 underline">
                Newer articles
              </Link>
            ) : (
              <span />
            )}
            <span className="text-sm text-neutral-700">
              Page {page} of {pages}
            </span>
            {page < pages ? (
              <Link to={`/blog?page=${page + 1}`} rel="next" className="font-medium text-brand-700 underline">
                Older articles
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </main>
      <SiteFooter companyName={company.name} />
    </>
  );
}
