import { MAX_LIVE_SHARE_LINKS, type ShareLinkItem } from "~/lib/share-links";
import type { ContentName } from "~/lib/site-content";
import type { Db } from "../db/db.server";
import {
  createShareLink,
  findShareLink,
  listShareLinks,
  revokeShareLink,
  ShareLinkLimitError,
} from "../versioning/index.server";
import { pageDocument } from "./drafts.server";

/**
 * Share links of a page's draft (ADR 053), kept by the versioning domain as
 * posts' are (ADR 064): a secret URL, /pages/preview/{name}/{token}, that
 * shows the page with its draft for SHARE_LINK_DAYS to whoever has it.
 */

export class PageShareLinkError extends Error {
  readonly status = 409;
}

/** Makes a link; answers its token, shown once. A page has at most MAX_LIVE_SHARE_LINKS live links. */
export async function createPageShareLink(
  db: Db,
  name: ContentName,
  admin: { id: string },
  now = new Date(),
): Promise<{ id: string; token: string; createdAt: string; expiresAt: string }> {
  try {
    // Every page exists (its original copy until published): nothing to hold.
    const link = await createShareLink(db, pageDocument(name), admin, () => Promise.resolve(true), now);
    return link!;
  } catch (error) {
    if (!(error instanceof ShareLinkLimitError)) throw error;
    throw new PageShareLinkError(
      `This page already has ${MAX_LIVE_SHARE_LINKS} live share links; revoke one before making another.`,
    );
  }
}

/** The page's live links, newest first (bounded by MAX_LIVE_SHARE_LINKS). */
export function listPageShareLinks(db: Db, name: ContentName, now = new Date()): Promise<ShareLinkItem[]> {
  return listShareLinks(db, pageDocument(name), now);
}

/** Revokes a link: its next request is a 404 everywhere. False when the page has no such live link. */
export function revokePageShareLink(db: Db, name: ContentName, id: string): Promise<boolean> {
  return revokeShareLink(db, pageDocument(name), id);
}

/** Whether `token` is a live share link of one of `names` (the landing page's preview shows two documents). */
export async function isLivePageShareLink(db: Db, names: ContentName[], token: string, now = new Date()) {
  const link = await findShareLink(db, "page", token, now);
  return link !== undefined && (names as string[]).includes(link.documentId);
}
