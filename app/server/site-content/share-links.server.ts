import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { isShareTokenShaped, MAX_LIVE_SHARE_LINKS, SHARE_LINK_DAYS, SHARE_TOKEN_BYTES } from "~/lib/share-links";
import { CONTENT_NAMES, type ContentName } from "~/lib/site-content";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import { hashSecretToken, newSecretToken } from "../platform/secret-tokens.server";

/**
 * Share links of a page's draft (ADR 053), as posts have (ADR 044): a secret
 * URL, /pages/preview/{name}/{token}, that shows the page with its draft for
 * SHARE_LINK_DAYS to whoever has it. Only the token's SHA-256 is stored;
 * expired links are pruned whenever one is made.
 */

const DAY_MS = 86_400_000;
/** The first key of the PostgreSQL advisory lock of a page's share links (page-images.server.ts has 53). */
const SHARE_LINKS_LOCK = 5_301;

export class PageShareLinkError extends Error {
  readonly status = 409;
}

export interface PageShareLink {
  id: string;
  createdAt: string;
  expiresAt: string;
  /** The e-mail of the administrator who made it. */
  createdBy: string;
}

/** Makes a link; answers its token, shown once. A page has at most MAX_LIVE_SHARE_LINKS live links. */
export async function createPageShareLink(
  db: Db,
  name: ContentName,
  admin: { id: string },
  now = new Date(),
): Promise<{ id: string; token: string; createdAt: string; expiresAt: string }> {
  const createdAt = now.toISOString();
  // The cap bounds how many rows a page's links can grow to. SQLite's
  // IMMEDIATE transactions count one at a time; on PostgreSQL a lock per
  // page, held to the transaction's end, does (two at once both passed it).
  return db.transaction().execute(async (trx) => {
    if (isPostgres(trx))
      await sql`select pg_advisory_xact_lock(${SHARE_LINKS_LOCK}, ${CONTENT_NAMES.indexOf(name)})`.execute(trx);
    await trx.deleteFrom("site_content_share_links").where("expires_at", "<=", createdAt).execute();
    const live = await trx
      .selectFrom("site_content_share_links")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    if (Number(live.count) >= MAX_LIVE_SHARE_LINKS)
      throw new PageShareLinkError(
        `This page already has ${MAX_LIVE_SHARE_LINKS} live share links; revoke one before making another.`,
      );
    const token = newSecretToken(SHARE_TOKEN_BYTES);
    const row = {
      id: randomUUID(),
      name,
      token_hash: hashSecretToken(token),
      created_by: admin.id,
      created_at: createdAt,
      expires_at: new Date(now.getTime() + SHARE_LINK_DAYS * DAY_MS).toISOString(),
    };
    await trx.insertInto("site_content_share_links").values(row).execute();
    return { id: row.id, token, createdAt, expiresAt: row.expires_at };
  });
}

/** The page's live links, newest first (bounded by MAX_LIVE_SHARE_LINKS). */
export async function listPageShareLinks(db: Db, name: ContentName, now = new Date()): Promise<PageShareLink[]> {
  return db
    .selectFrom("site_content_share_links")
    .innerJoin("admin_users", "admin_users.id", "site_content_share_links.created_by")
    .select([
      "site_content_share_links.id as id",
      "site_content_share_links.created_at as createdAt",
      "site_content_share_links.expires_at as expiresAt",
      "admin_users.email as createdBy",
    ])
    .where("site_content_share_links.name", "=", name)
    .where("site_content_share_links.expires_at", ">", now.toISOString())
    .orderBy("site_content_share_links.created_at", "desc")
    .orderBy("site_content_share_links.id")
    .limit(MAX_LIVE_SHARE_LINKS)
    .execute();
}

/** Revokes a link: its next request is a 404 everywhere. False when the page has no such link. */
export async function revokePageShareLink(db: Db, name: ContentName, id: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  const result = await db
    .deleteFrom("site_content_share_links")
    .where("id", "=", id)
    .where("name", "=", name)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether `token` is a live share link of one of `names` (the landing page's preview shows two documents). */
export async function isLivePageShareLink(db: Db, names: ContentName[], token: string, now = new Date()) {
  if (!isShareTokenShaped(token)) return false;
  const row = await db
    .selectFrom("site_content_share_links")
    .select("expires_at")
    .where("token_hash", "=", hashSecretToken(token))
    .where("name", "in", names)
    .executeTakeFirst();
  return row !== undefined && row.expires_at > now.toISOString();
}
