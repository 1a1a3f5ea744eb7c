/**
 * Share links of drafts and scheduled posts (ADR 044): the shapes, bounds and
 * texts shared by the server, the API and the editor's "Share a draft" section.
 */

/** A link opens the post this long after it is made. */
export const SHARE_LINK_DAYS = 7;
/** Live (neither expired nor revoked) links a post may have at once; the next is refused with 409. */
export const MAX_LIVE_SHARE_LINKS = 10;
/** Random bytes in a token: 43 base64url characters. */
export const SHARE_TOKEN_BYTES = 32;

/** The link a reader opens; the token travels in the path and is never stored. */
export const previewPath = (token: string) => `/blog/preview/${token}`;
export { isPreviewPath } from "./secret-paths";

/**
 * Every answer of a share link, the page and the 404 alike: kept by no cache
 * (the token is its only key), indexed by no search engine, and the token
 * never sent on to another site as a referrer.
 */
export const PREVIEW_HEADERS = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
} as const;

/** Exactly what `newSecretToken(SHARE_TOKEN_BYTES)` makes; checked for length before the pattern. */
const TOKEN_SHAPE = /^[\w-]{43}$/;
export const isShareTokenShaped = (token: string) => token.length === 43 && TOKEN_SHAPE.test(token);

/** One live link as GET /api/admin/posts/{id}/preview-links lists it: never its token. */
export interface ShareLinkItem {
  id: string;
  createdAt: string;
  expiresAt: string;
  /** The e-mail of the administrator who made it. */
  createdBy: string;
}

/** POST's answer: the only time the link's URL (with its token) is shown. */
export interface CreatedShareLink {
  id: string;
  url: string;
  createdAt: string;
  expiresAt: string;
}

/** The notice above the article on a share link's page. */
export function previewNotice({
  isPublic,
  scheduledFor,
  expiresOn,
}: {
  isPublic: boolean;
  /** The publish date when the post is published but its date has not come. */
  scheduledFor: string | null;
  expiresOn: string;
}): string {
  if (isPublic) return `Shared preview: this post is published now. This link expires on ${expiresOn}.`;
  const when = scheduledFor ? `scheduled for ${scheduledFor}, not published yet` : "not published yet";
  return `Preview: ${when}. Please do not share this link further; it expires on ${expiresOn}.`;
}

export const SHARE_LINK_TEXT = {
  tooMany: `This post already has ${MAX_LIVE_SHARE_LINKS} live share links. Revoke one before making another.`,
  postNotFound: "Post not found",
  linkNotFound: "Share link not found",
} as const;
