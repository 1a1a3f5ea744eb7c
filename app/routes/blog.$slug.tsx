import { Link } from "react-router";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import { PostImage } from "~/components/site/post-image";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { findPublicPostBySlug } from "~/server/posts.server";
import type { Route } from "./+types/blog.$slug";

export async function loader({ params }: Route.LoaderArgs) {
  const post = await findPublicPostBySlug(getDb(), params.slug);
  if (!post) throw new Response("Not found", { status: 404 });
  const { company, siteUrl } = getConfig();
  // The markdown source stays on the server: the page needs only the rendered HTML.
  const { content: _markdown, ...article } = post;
  return { post: article, company, siteUrl };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const { post, company, siteUrl } = data;
  return pageMeta({
    title: `${post.title} | ${company.name}`,
    description: post.excerpt,
    canonical: `${siteUrl}/blog/${post.slug}`,
  });
}

export default function Article({ loaderData }: Route.ComponentProps) {
  const { post, company } = loaderData;
  return (
    <>
      <SiteHeader companyName={company.name} />
      <main id="main" className="mx-auto max-w-3xl px-4 py-12">
        <p>
          <Link to="/blog" className="font-medium text-brand-700 underline underline-offset-2">
            Back to articles
          </Link>
        </p>
        <article className="mt-6">
          {post.headerImage && (
            <PostImage
              src={post.headerImage}
              sizes="(min-width: 768px) 768px, 100vw"
              className="mb-8 aspect-[16/9] w-full rounded-lg object-cover"
              priority
            />
          )}
          <p className="text-sm text-neutral-700">
            {post.category && <span className="font-semibold text-brand-700">{post.category}</span>}
            {post.category && " · "}
            <time dateTime={post.publishDate}>{formatDate(post.publishDate)}</time> · {post.readTime}
          </p>
          <h1 className="mt-3 text-3xl font-bold leading-tight sm:text-4xl">{post.title}</h1>
          <p className="mt-3 text-neutral-700">By {post.author}</p>
          {/* Sanitised by the markdown pipeline when the post was saved. */}
          <div className="prose-article mt-10" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
        </article>
      </main>
      <SiteFooter companyName={company.name} />
    </>
  );
}
