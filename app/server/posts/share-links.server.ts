import { randomUUID } from "node:crypto";
import {
  isShareTokenShaped,
  MAX_LIVE_SHARE_LINKS,
  SHARE_LINK_DAYS,
  SHARE_LINK_TEXT,
  SHARE_TOKEN_BYTES,
  type ShareLinkItem,
} from "~/lib/share-links";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import { ARTICLE_COLUMNS, toArticle, type Article } from "./post-shape.server";
import { hashSecretToken, newSecretToken } from "../platform/secret-tokens.server";

/**
 * Share links of a post (ADR 044): a secret URL that shows a draft or a
 * scheduled post as its article page will, for SHARE_LINK_DAYS, until it is
 * revoked. Only the token's SHA-256 is stored. A link is live while it is
 * neither revoked nor expired; dead rows are pruned whenever a link is made.
 */

export class ShareLinksError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const DAY_MS = 86_400_000;

/**
 * Makes a link to post `postId` for `admin`; answers it with its token, shown
 * once. Refuses (409) a post that already has MAX_LIVE_SHARE_LINKS live
 * links. The post's row is locked (PostgreSQL) or the write lock held
 * (SQLite's IMMEDIATE transactions) while counting, so two at once cannot
 * both make the eleventh.
 */
export async function createShareLink(
  db: Db,
  postId: string,
  admin: { id: string },
  now = new Date(),
): Promise<{ id: string; token: string; slug: string; createdAt: string; expiresAt: string }> {
  if (!isRecordId(postId)) throw new ShareLinksError(404, SHARE_LINK_TEXT.postNotFound);
  const createdAt = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const postQuery = trx.selectFrom("posts").select(["id", "slug"]).where("id", "=", postId);
    const post = await (isPostgres(trx) ? postQuery.forUpdate() : postQuery).executeTakeFirst();
    if (!post) throw new ShareLinksError(404, SHARE_LINK_TEXT.postNotFound);
    await pruneDeadLinks(trx, createdAt);
    const live = await trx
      .selectFrom("preview_links")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where("post_id", "=", postId)
      .executeTakeFirstOrThrow();
    if (Number(live.count) >= MAX_LIVE_SHARE_LINKS) throw new ShareLinksError(409, SHARE_LINK_TEXT.tooMany);
    const token = newSecretToken(SHARE_TOKEN_BYTES);
    const row = {
      id: randomUUID(),
      post_id: postId,
      token_hash: hashSecretToken(token),
      created_by: admin.id,
      created_at: createdAt,
      expires_at: new Date(now.getTime() + SHARE_LINK_DAYS * DAY_MS).toISOString(),
    };
    await trx.insertInto("preview_links").values(row).execute();
    return { id: row.id, token, slug: post.slug, createdAt, expiresAt: row.expires_at };
  });
}

/** Removes every expired or revoked link (of any post): they open nothing and list nowhere. */
async function pruneDeadLinks(db: Db, nowIso = new Date().toISOString()): Promise<number> {
  const result = await db
    .deleteFrom("preview_links")
    .where((eb) => eb.or([eb("expires_at", "<=", nowIso), eb("revoked_at", "is not", null)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The post's live links, newest first (at most MAX_LIVE_SHARE_LINKS), or undefined for no such post. */
export async function listShareLinks(db: Db, postId: string, now = new Date()): Promise<ShareLinkItem[] | undefined> {
  if (!isRecordId(postId)) return undefined;
  const post = await db.selectFrom("posts").select("id").where("id", "=", postId).executeTakeFirst();
  if (!post) return undefined;
  const rows = await db
    .selectFrom("preview_links")
    .innerJoin("admin_users", "admin_users.id", "preview_links.created_by")
    .select([
      "preview_links.id as id",
      "preview_links.created_at as createdAt",
      "preview_links.expires_at as expiresAt",
      "admin_users.email as createdBy",
    ])
    .where("preview_links.post_id", "=", postId)
    .where("preview_links.revoked_at", "is", null)
    .where("preview_links.expires_at", ">", now.toISOString())
    .orderBy("preview_links.created_at", "desc")
    .orderBy("preview_links.id")
    .limit(MAX_LIVE_SHARE_LINKS)
    .execute();
  return rows;
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
  if (!isRecordId(postId) || !isRecordId(linkId)) return undefined;
  const nowIso = now.toISOString();
  const result = await db
    .updateTable("preview_links")
    .set({ revoked_at: nowIso })
    .where("id", "=", linkId)
    .where("post_id", "=", postId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
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
  if (!isShareTokenShaped(token)) return undefined;
  const nowIso = now.toISOString();
  const link = await db
    .selectFrom("preview_links")
    .select(["post_id", "expires_at"])
    .where("token_hash", "=", hashSecretToken(token))
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso)
    .executeTakeFirst();
  if (!link) return undefined;
  const row = await db
    .selectFrom("posts")
    .select([...ARTICLE_COLUMNS, "published"])
    .where("id", "=", link.post_id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    article: toArticle(row),
    isPublic: row.published === 1 && row.publish_date <= nowIso,
    expiresAt: link.expires_at,
  };
}
