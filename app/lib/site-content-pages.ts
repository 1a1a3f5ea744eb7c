import type { ContentName } from "./site-content";

/**
 * Where each editable page's content shows (ADR 053): its public page, the
 * editor's preview of its draft and a share link's address. The contact
 * modal's sentences show on every page; their preview is the landing page.
 */
const PAGE_PREVIEW_PREFIX = "/pages/preview/";

const PREVIEWED: Record<ContentName, "landing" | "about" | "privacy"> = {
  landing: "landing",
  about: "about",
  contact: "landing",
  privacy: "privacy",
};

/** The signed-in editor's preview of the page with its draft. */
export const pagePreviewPath = (name: ContentName) => `${PAGE_PREVIEW_PREFIX}${PREVIEWED[name]}`;

/** A share link: the token travels in the path and is never stored. */
export const pageSharePath = (name: ContentName, token: string) => `${PAGE_PREVIEW_PREFIX}${PREVIEWED[name]}/${token}`;
