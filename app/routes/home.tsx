import { MediaSection, ResearchSection, SystemsSection } from "~/components/site/landing-sections";
import { LatestInsights } from "~/components/site/latest-insights";
import { insights } from "~/content/landing";
import { Island } from "~/islands/island";
import { landingPage } from "~/islands/page";
import { pageMeta } from "~/lib/seo";
import { getConfig } from "~/server/config.server";
import { PUBLIC_CACHE_CONTROL } from "~/server/http.server";
import { getDb } from "~/server/db/index.server";
import { listPublicSummaries } from "~/server/public-posts.server";
import type { Route } from "./+types/home";

export const handle = landingPage;

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader() {
  const { company, siteUrl } = getConfig();
  const posts = await listPublicSummaries(getDb(), { limit: insights.maxPosts, offset: 0, now: new Date() });
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
  const { posts, company, siteUrl } = loaderData;
  // The splash and fade-ins play on arrival; the <head> skips them for a
  // visitor coming from another page of the site (components/site/intro.tsx).
  return (
    <>
      <Island name="splash" props={{ companyName: company.name }} />
      <Island name="site-header" props={{ companyName: company.name, overlay: true, intro: true }} />
      <main id="main" className="intro-content">
        <Island name="hero" props={{}} />
        {/* SPEC §2: the footer's service links scroll to "services". */}
        <div id="services" className="scroll-mt-16">
          <MediaSection />
          <SystemsSection />
          <ResearchSection />
        </div>
        <LatestInsights posts={posts} siteUrl={siteUrl} />
      </main>
      <Island name="site-footer" props={{ companyName: company.name, intro: true }} />
    </>
  );
}
