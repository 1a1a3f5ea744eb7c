import type { MetaDescriptor } from "react-router";

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

/** A page's share card as its loader names it (app/server/share-cards, ADR 073). */
export interface ShareCardRef {
  url: string;
  width: number;
  height: number;
}

/**
 * Open Graph and Twitter card tags: what a shared link shows on LinkedIn,
 * Slack, WhatsApp or X. The card is a 1200x630 JPEG (LinkedIn shows no
 * WebP), named by an absolute URL as the crawlers need.
 */
export function shareMeta({
  title,
  description,
  url,
  siteUrl,
  siteName,
  card,
  cardAlt,
  type = "website",
}: {
  title: string;
  description?: string;
  url: string;
  siteUrl: string;
  siteName: string;
  card?: ShareCardRef;
  cardAlt?: string;
  type?: "website" | "article";
}): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [
    { property: "og:type", content: type },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: title },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_US" },
    { name: "twitter:card", content: card ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
  ];
  if (description)
    tags.push(
      { property: "og:description", content: description },
      { name: "twitter:description", content: description },
    );
  if (card) {
    const image = `${siteUrl}${card.url}`;
    const alt = cardAlt || title;
    tags.push(
      { property: "og:image", content: image },
      { property: "og:image:type", content: "image/jpeg" },
      { property: "og:image:width", content: String(card.width) },
      { property: "og:image:height", content: String(card.height) },
      { property: "og:image:alt", content: alt },
      { name: "twitter:image", content: image },
      { name: "twitter:image:alt", content: alt },
    );
  }
  return tags;
}
