import { SHARE_LINK_TEXT, type ShareLinkItem } from "~/lib/share-links";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import {
  createShareLink as createDocumentShareLink,
  findShareLink,
  listShareLinks as listDocumentShareLinks,
  revokeShareLink as revokeDocumentShareLink,
  ShareLinkLimitError,
  type DocumentRef,
} from "../versioning/index.server";
import { ARTICLE_COLUMNS, toArticle, type Article } from "./post-shape.server";

/**
 * Share links of a post (ADR 044), kept by the versioning domain (ADR 064):
 * a secret URL that shows a draft or a scheduled post as its article page
 * will, for SHARE_LINK_DAYS, until it is revoked. This module adds what is a
 * post's own: its 404s, its slug for the audit log, and the article a link shows.
 */

export class ShareLinksError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const postDocument = (id: string): DocumentRef => ({ kind: "post", id });

/**
 * Makes a link to post `postId` for `admin`; answers it with its token, shown
 * once. Refuses (409) a post that already has MAX_LIVE_SHARE_LINKS live
 * links. The post's row is locked (PostgreSQL) while the link is made, so it
 * cannot be deleted meanwhile.
 */
export async function createShareLink(
  db: Db,
  postId: string,
  admin: { id: string },
  now = new Date(),
): Promise<{ id: string; token: string; slug: string; createdAt: string; expiresAt: string }> {
  if (!isRecordId(postId)) throw new ShareLinksError(404, SHARE_LINK_TEXT.postNotFound);
  let slug = "";
  try {
    const link = await createDocumentShareLink(
      db,
      postDocument(postId),
      admin,
      async (trx) => {
        const query = trx.selectFrom("posts").select("slug").where("id", "=", postId);
        const post = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
        slug = post?.slug ?? "";
        return post !== undefined;
      },
      now,
    );
    if (!link) throw new ShareLinksError(404, SHARE_LINK_TEXT.postNotFound);
    return { ...link, slug };
  } catch (error) {
    if (error instanceof ShareLinkLimitError) throw new ShareLinksError(409, SHARE_LINK_TEXT.tooMany);
    throw error;
  }
}

/** The post's live links, newest first (at most MAX_LIVE_SHARE_LINKS), or undefined for no such post. */
export async function listShareLinks(db: Db, postId: string, now = new Date()): Promise<ShareLinkItem[] | undefined> {
  if (!isRecordId(postId)) return undefined;
  const post = await db.selectFrom("posts").select("id").where("id", "=", postId).executeTakeFirst();
  if (!post) return undefined;
  return listDocumentShareLinks(db, postDocument(postId), now);
}

/**
 * Revokes a live link of post `postId`: the next request with its token is a
 * 404 in every process. Answers the post's slug (for the audit log), or
 * undefined when the post has no such live link.
 */
export async function revokeShareLink(
  db: Db,
  postId: string,
  linkId: string,
  now = new Date(),
): Promise<string | undefined> {
  if (!isRecordId(postId)) return undefined;
  if (!(await revokeDocumentShareLink(db, postDocument(postId), linkId, now))) return undefined;
  const post = await db.selectFrom("posts").select("slug").where("id", "=", postId).executeTakeFirst();
  return post?.slug ?? "";
}

/** What a share link shows: the article as its page would, whether it is public yet, and when the link ends. */
interface PreviewArticle {
  article: Article;
  /** Published and its publish date come: the article's own page shows it too. */
  isPublic: boolean;
  expiresAt: string;
}

/**
 * The article a live link's token opens, or undefined for an unknown,
 * malformed, expired or revoked token (one answer for all: a reader learns
 * nothing about links they do not hold).
 */
export async function findPreviewArticle(db: Db, token: string, now = new Date()): Promise<PreviewArticle | undefined> {
  const link = await findShareLink(db, "post", token, now);
  if (!link) return undefined;
  const row = await db
    .selectFrom("posts")
    .select([...ARTICLE_COLUMNS, "published"])
    .where("id", "=", link.documentId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    article: toArticle(row),
    isPublic: row.published === 1 && row.publish_date <= now.toISOString(),
    expiresAt: link.expiresAt,
  };
}
