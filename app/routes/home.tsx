import { useEffect } from "react";
import { useLocation } from "react-router";
import { Hero, MediaSection, ResearchSection, SystemsSection } from "~/components/site/landing-sections";
import { LatestInsights } from "~/components/site/latest-insights";
import { Splash, useIntro } from "~/components/site/intro";
import type { PostSummary } from "~/components/site/post-card";
import { SiteFooter } from "~/components/site/site-footer";
import { SiteHeader } from "~/components/site/site-header";
import { insights } from "~/content/landing";
import { HASH_SCROLL_DELAY_MS, isLandingPath, scrollToSection } from "~/lib/scroll";
import { pageMeta } from "~/lib/seo";
import { getConfig } from "~/server/config.server";
import { PUBLIC_CACHE_CONTROL } from "~/server/http.server";
import { getDb } from "~/server/db/index.server";
import { listPublicPosts } from "~/server/posts.server";
import type { Route } from "./+types/home";

/** The same for every visitor: kept by the page cache, revalidated by browsers. */
export function headers() {
  return { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export function loader() {
  const { company, siteUrl } = getConfig();
  // Not awaited: a client navigation shows the page at once and the carousel
  // says it is loading; the server render still waits for it (onAllReady).
  const posts: Promise<PostSummary[]> = listPublicPosts(getDb(), { limit: insights.maxPosts, offset: 0 }).then((list) =>
    list.map(({ id, slug, title, excerpt, category, author, readTime, publishDate, headerImage }) => ({
      id,
      slug,
      title,
      excerpt,
      category,
      author,
      readTime,
      publishDate,
      headerImage,
    })),
  );
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
  const intro = useIntro();
  const location = useLocation();

  // SPEC §2: on / or /home, a hash scrolls smoothly to its section after 100 ms.
  useEffect(() => {
    if (!isLandingPath(location.pathname) || location.hash.length < 2) return;
    const id = decodeURIComponent(location.hash.slice(1));
    const timer = window.setTimeout(() => scrollToSection(id), HASH_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [location.pathname, location.hash, location.key]);

  return (
    <>
      {intro && <Splash companyName={company.name} />}
      <SiteHeader companyName={company.name} overlay intro={intro} />
      <main id="main" className={intro ? "intro-content" : undefined}>
        <Hero />
        {/* SPEC §2: the footer's service links scroll to "services". */}
        <div id="services" className="scroll-mt-16">
          <MediaSection />
          <SystemsSection />
          <ResearchSection />
        </div>
        <LatestInsights posts={posts} siteUrl={siteUrl} />
      </main>
      <SiteFooter companyName={company.name} intro={intro} />
    </>
  );
}
