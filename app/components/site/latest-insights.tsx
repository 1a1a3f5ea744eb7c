import { Suspense, use } from "react";
import { insights } from "~/content/landing";
import { Island } from "~/islands/island";
import { InsightsFrame } from "./insights-carousel";
import type { PostSummary } from "./post-card";

/** The "solutions" section: Latest Insights, loading while the posts arrive. */
export function LatestInsights({ posts, siteUrl }: { posts: Promise<PostSummary[]>; siteUrl: string }) {
  return (
    <section
      id="solutions"
      tabIndex={-1}
      aria-labelledby="insights-heading"
      className="relative scroll-mt-16 overflow-hidden bg-neutral-950 px-4 py-20 text-white outline-none"
    >
      <Suspense fallback={<InsightsFrame><p className="mt-8 text-lg" role="status">{insights.loading}</p></InsightsFrame>}>
        <LoadedInsights posts={posts} siteUrl={siteUrl} />
      </Suspense>
    </section>
  );
}

function LoadedInsights({ posts, siteUrl }: { posts: Promise<PostSummary[]>; siteUrl: string }) {
  const list = use(posts).slice(0, insights.maxPosts);
  return <Island name="insights" props={{ posts: list, siteUrl }} />;
}
