import { Link } from "react-router";
import { PostCard } from "~/components/site/post-card";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import { pageMeta } from "~/lib/seo";
import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { listPublicPosts } from "~/server/posts.server";
import type { Route } from "./+types/home";

export async function loader() {
  const { company, siteUrl } = getConfig();
  const posts = await listPublicPosts(getDb(), { limit: 5, offset: 0 });
  return { posts, company, siteUrl };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return pageMeta({
    title: `${data.company.name} | Technology Solutions For People + By People`,
    description:
      "Web design for media, cloud and business platforms for systems, and research projects from Ojai, California.",
    canonical: `${data.siteUrl}/`,
  });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { posts, company } = loaderData;
  return (
    <>
      <SiteHeader companyName={company.name} />
      <main id="main">
        <section id="hero" className="bg-brand-800 px-4 py-20 text-white">
          <div className="mx-auto max-w-4xl text-center">
            <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Technology Solutions For People + By People</h1>
            <p className="mt-6 text-lg text-brand-100">For Media, For Systems, For Research.</p>
          </div>
        </section>
        <section id="solutions" aria-labelledby="insights-heading" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="insights-heading" className="text-3xl font-bold">Latest Insights</h2>
          {posts.length === 0 ? (
            <p className="mt-6 text-neutral-700">No blog posts available yet.</p>
          ) : (
            <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {posts.map((post) => (
                <PostCard key={post.id} post={post} headingLevel={3} />
              ))}
            </div>
          )}
          <p className="mt-8">
            <Link to="/blog" className="font-medium text-brand-700 underline underline-offset-2">
              All articles
            </Link>
          </p>
        </section>
      </main>
      <SiteFooter companyName={company.name} />
    </>
  );
}
