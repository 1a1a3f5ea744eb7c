import { JsonLd } from "~/components/site/json-ld";
import { MediaSection, ResearchSection, SystemsSection } from "~/components/site/landing-sections";
import { LatestInsights } from "~/components/site/latest-insights";
import { PreviewBanner } from "~/components/site/preview-banner";
import { Island } from "~/islands/island";
import { organizationJsonLd } from "~/lib/article-seo";
import type { SiteSettings } from "~/lib/site-settings";
import type { LandingContent } from "~/lib/site-content";
import type { PostSummary } from "~/server/posts/index.server";

/**
 * The landing page's body: what / shows, and what its preview shows with a
 * draft of the landing document (ADR 053), with a banner above it then.
 */
export function LandingPage(props: {
  posts: PostSummary[];
  settings: SiteSettings;
  siteUrl: string;
  content: LandingContent;
  preview?: string;
}) {
  const { posts, settings, siteUrl, content, preview } = props;
  const { companyName, socialUrls } = settings;
  // The splash and fade-ins play on arrival; the <head> skips them for a
  // visitor coming from another page of the site (components/site/intro.tsx).
  return (
    <>
      <Island name="splash" props={{ companyName }} />
      {preview && <PreviewBanner text={preview} />}
      <Island name="site-header" props={{ companyName, overlay: true, intro: true }} />
      <main id="main" className="intro-content">
        <Island name="hero" props={{}} />
        {/* The footer's service links scroll to "services" (docs/product/interface.md#footer). */}
        <div id="services" className="scroll-mt-16">
          <MediaSection content={content.media} />
          <SystemsSection content={content.systems} />
          <ResearchSection content={content.research} />
        </div>
        <LatestInsights posts={posts} siteUrl={siteUrl} />
        <JsonLd data={organizationJsonLd(settings, siteUrl)} />
      </main>
      <Island name="site-footer" props={{ companyName, socialUrls, intro: true }} />
    </>
  );
}
