/**
 * The words of the editors' "Share a draft" section (ADR 044, ADR 053): one
 * set for a post, one for an editable page. No control's name holds
 * "Preview", "Save", "Edit" or "Delete", and no label a field's name: tests
 * find the editors' own controls by those words.
 */
import { MAX_LIVE_SHARE_LINKS, SHARE_LINK_DAYS } from "~/lib/share-links";

export interface ShareLinkTexts {
  /** Shown while there is nothing to share yet (a post not saved). */
  notYet: string;
  hint: string;
  revoked: string;
  full: string;
}

export const SHARE_LINK_TEXTS: Record<"post" | "page", ShareLinkTexts> = {
  post: {
    notYet: "Save the post first to share it.",
    hint:
      "Anyone with a share link can read this post as last saved, even before it is public. Search engines are asked " +
      `to skip it. A link works for ${SHARE_LINK_DAYS} days or until you revoke it; at most ${MAX_LIVE_SHARE_LINKS} at a time.`,
    revoked: "Link revoked: it no longer opens the post.",
    full: `This post has ${MAX_LIVE_SHARE_LINKS} live links: revoke one to make another.`,
  },
  page: {
    notYet: "",
    hint:
      "Anyone with a share link can see this page with its draft, as last kept, before it is published. Search " +
      `engines are asked to skip it. A link works for ${SHARE_LINK_DAYS} days or until you revoke it; at most ` +
      `${MAX_LIVE_SHARE_LINKS} at a time.`,
    revoked: "Link revoked: it no longer opens the page.",
    full: `This page has ${MAX_LIVE_SHARE_LINKS} live links: revoke one to make another.`,
  },
};

export const SHARE_LINK_COMMON = {
  heading: "Share a draft",
  create: "Create a share link",
  created: "Share link created. Copy it now: it is shown only once.",
  newLink: "New share link",
  copy: "Copy link",
  copiedText: "Link copied.",
  copyFailed: "Could not copy by itself: the link is selected, press Control or Command plus C.",
  expires: (when: string) => `Expires ${when}. It is shown only this once.`,
  live: "Live links",
  loading: "Loading share links...",
  none: "No live share links.",
  revoke: "Revoke",
  revokeLabel: (when: string) => `Revoke the link that expires ${when}`,
  made: (when: string, by: string) => `Made ${when} by ${by}`,
  expiresAt: (when: string) => `Expires ${when}`,
  loadFailed: (detail: string) => `Could not load the share links: ${detail}`,
  createFailed: (detail: string) => `Could not create a share link: ${detail}`,
  revokeFailed: (detail: string) => `Could not revoke the link: ${detail}`,
};
