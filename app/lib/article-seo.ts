import type { MetaDescriptor } from "react-router";
import { parseImageVariantPath } from "./images";
import { pageMeta, shareMeta, type ShareCardRef } from "./seo";
import { SOCIAL_NETWORKS, type SiteSettings } from "./site-settings";

/** What an article's meta tags and structured data are made from. */
export interface ArticleSeoInput {
  title: string;
  excerpt: string;
  slug: string;
  category: string;
  author: string;
  publishDate: string;
  updatedAt?: string;
  headerImage: string | null;
  /** Per-post SEO (docs/product/contract.md#post-seo-fields); absent or null: the title, the excerpt, the title. */
  metaTitle?: string | null;
  metaDescription?: string | null;
  headerImageAlt?: string | null;
  noindex?: boolean;
}

export interface SiteSeo {
  siteUrl: string;
  companyName: string;
}

export function articleUrl(siteUrl: string, slug: string): string {
  return `${siteUrl}/blog/${encodeURIComponent(slug)}`;
}

/** Share previews need an absolute image URL; uploaded images are site-relative. */
export function absoluteUrl(siteUrl: string, url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  return `${siteUrl}${url.startsWith("/") ? "" : "/"}${url}`;
}

/**
 * Title, description, canonical URL (always /blog/{slug}, also for the
 * in-place view on /blog), Open Graph and Twitter card tags. A post's meta
 * title is its whole <title> and its share title; its meta description
 * replaces the excerpt; its alt text describes the share card when the card
 * is its header image; `noindex` asks search engines to leave it out. The
 * share card (ADR 073) is a JPEG crop of the header image, or the site's
 * own card with the title: LinkedIn shows no WebP.
 */
export function articleMeta(post: ArticleSeoInput, site: SiteSeo, card?: ShareCardRef): MetaDescriptor[] {
  const url = articleUrl(site.siteUrl, post.slug);
  const shareTitle = post.metaTitle || post.title;
  const description = post.metaDescription || post.excerpt;
  const tags: MetaDescriptor[] = [
    ...pageMeta({
      title: post.metaTitle || `${post.title} | ${site.companyName}`,
      description,
      canonical: url,
      noindex: post.noindex,
    }),
    ...shareMeta({
      title: shareTitle,
      description,
      url,
      siteUrl: site.siteUrl,
      siteName: site.companyName,
      card,
      cardAlt:
        post.headerImage && parseImageVariantPath(post.headerImage) ? post.headerImageAlt || post.title : shareTitle,
      type: "article",
    }),
    { property: "article:published_time", content: post.publishDate },
  ];
  if (post.updatedAt) tags.push({ property: "article:modified_time", content: post.updatedAt });
  if (post.category) tags.push({ property: "article:section", content: post.category });
  return tags;
}

/** schema.org BlogPosting for the article page. */
export function blogPostingJsonLd(post: ArticleSeoInput, site: SiteSeo): Record<string, unknown> {
  const url = articleUrl(site.siteUrl, post.slug);
  const organization = { "@type": "Organization", name: site.companyName, url: site.siteUrl };
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: post.metaDescription || post.excerpt,
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    datePublished: post.publishDate,
    dateModified: post.updatedAt && post.updatedAt > post.publishDate ? post.updatedAt : post.publishDate,
    ...(post.category ? { articleSection: post.category } : {}),
    ...(post.headerImage ? { image: [absoluteUrl(site.siteUrl, post.headerImage)] } : {}),
    author: post.author === site.companyName ? organization : { "@type": "Person", name: post.author },
    publisher: organization,
  };
}

/**
 * schema.org Organization for the landing page, from the site settings: the
 * details that are set, and the social profiles as `sameAs`.
 */
export function organizationJsonLd(
  settings: Pick<SiteSettings, "companyName" | "contactEmail" | "contactPhone" | "metaDescription" | "socialUrls">,
  siteUrl: string,
): Record<string, unknown> {
  const sameAs = SOCIAL_NETWORKS.map((network) => settings.socialUrls[network]).filter((url) => url !== null);
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: settings.companyName,
    url: `${siteUrl}/`,
    ...(settings.metaDescription ? { description: settings.metaDescription } : {}),
    ...(settings.contactEmail ? { email: settings.contactEmail } : {}),
    ...(settings.contactPhone ? { telephone: settings.contactPhone } : {}),
    ...(sameAs.length > 0 ? { sameAs } : {}),
  };
}

/**
 * JSON for a <script type="application/ld+json"> body: `<` is escaped so that
 * no value (a title with "</script>", say) can end the script element.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
