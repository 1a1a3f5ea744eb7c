import { insights } from "~/content/landing";
import { Island } from "~/islands/island";
import { InsightsFrame } from "./insights-carousel";
import type { PostSummary } from "~/server/posts/index.server";

/**
 * The "solutions" section: Latest Insights (docs/product/interface.md#latest-insights-carousel). "Loading latest
 * insights..." is what it shows while its posts are not known (`posts`
 * undefined). The landing page reads them before it renders (and sends
 * its HTML whole, entry.server's onAllReady), so a visitor gets the carousel
 * or its empty text, with or without JavaScript.
 */
export function LatestInsights({ posts, siteUrl }: { posts: PostSummary[] | undefined; siteUrl: string }) {
  return (
    <section
      id="solutions"
      tabIndex={-1}
      aria-labelledby="insights-heading"
      className="relative scroll-mt-16 overflow-hidden bg-neutral-950 px-4 py-20 text-white outline-none"
    >
      {posts ? (
        <Island name="insights" props={{ posts: posts.slice(0, insights.maxPosts), siteUrl }} />
      ) : (
        <InsightsFrame>
          <p className="mt-8 text-lg" role="status">
            {insights.loading}
          </p>
        </InsightsFrame>
      )}
    </section>
  );
}
