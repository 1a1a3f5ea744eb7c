/** Share links for the Latest Insights carousel: a 600x400 popup per network (docs/product/interface.md#share-links). */

export type ShareNetwork = "twitter" | "linkedin" | "facebook";

export const shareNetworks: Array<{ id: ShareNetwork; label: string }> = [
  { id: "twitter", label: "Twitter/X" },
  { id: "linkedin", label: "LinkedIn" },
  { id: "facebook", label: "Facebook" },
];

const SHARE_POPUP = { width: 600, height: 400 };

/** The public address of an article: SITE_URL + /blog/{slug}. */
export function articleUrl(siteUrl: string, slug: string): string {
  let origin = siteUrl;
  while (origin.endsWith("/")) origin = origin.slice(0, -1);
  return `${origin}/blog/${encodeURIComponent(slug)}`;
}

export function shareUrl(network: ShareNetwork, { url, title }: { url: string; title: string }): string {
  switch (network) {
    case "twitter":
      return `https://twitter.com/intent/tweet?${new URLSearchParams({ text: title, url })}`;
    case "linkedin":
      return `https://www.linkedin.com/sharing/share-offsite/?${new URLSearchParams({ url })}`;
    case "facebook":
      return `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: url })}`;
  }
}

/** Opens the network's share page in a 600x400 popup, centred on the current window. */
export function openSharePopup(network: ShareNetwork, article: { url: string; title: string }): void {
  const { width, height } = SHARE_POPUP;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  window.open(
    shareUrl(network, article),
    `share-${network}`,
    `width=${width},height=${height},left=${left},top=${top},noopener,noreferrer`,
  );
}
