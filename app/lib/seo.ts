import type { MetaDescriptor } from "react-router";

/**
 * The blog's feed, for browsers and readers that discover it. In meta, not a
 * route's `links`: public pages render no <Links/> (ADR 031).
 */
export const BLOG_FEED_LINK: MetaDescriptor = {
  tagName: "link",
  rel: "alternate",
  type: "application/rss+xml",
  title: "Blog RSS feed",
  href: "/rss.xml",
};

/** Title, description and canonical URL for a page. */
export function pageMeta({
  title,
  description,
  canonical,
  noindex = false,
}: {
  title: string;
  description?: string;
  canonical?: string;
  noindex?: boolean;
}): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [{ title }];
  if (description) tags.push({ name: "description", content: description });
  if (canonical) tags.push({ tagName: "link", rel: "canonical", href: canonical });
  if (noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
