import { randomUUID } from "node:crypto";
import { sql, type Transaction } from "kysely";
import {
  isShareTokenShaped,
  MAX_LIVE_SHARE_LINKS,
  SHARE_LINK_DAYS,
  SHARE_TOKEN_BYTES,
  type ShareLinkItem,
} from "~/lib/share-links";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import type { Database } from "../db/schema.server";
import { hashSecretToken, newSecretToken } from "../platform/secret-tokens.server";
import type { DocumentKind, DocumentRef } from "./documents.server";
import { ofDocument } from "./revisions.server";

/**
 * Share links of any document (ADR 044, 053, 064): a secret URL that shows a
 * document's draft or unpublished state to whoever holds it, for
 * SHARE_LINK_DAYS, until revoked. Only the token's SHA-256 is stored. A link
 * is live while neither revoked nor expired; dead rows (of every document)
 * are pruned whenever a link is made, and a document has at most
 * MAX_LIVE_SHARE_LINKS live ones, so the table stays bounded.
 */

const DAY_MS = 86_400_000;
/** The first key of the PostgreSQL advisory lock of a document's share links (page-images has 53). */
const SHARE_LINKS_LOCK = 5_301;

/** The document already has MAX_LIVE_SHARE_LINKS live links. */
export class ShareLinkLimitError extends Error {}

/**
 * Makes a link to `document` for `admin`; answers its token, shown once.
 * `hold(trx)` runs first in the transaction and answers whether the document
 * exists (a post locks its row there, so it cannot go meanwhile); without it,
 * undefined is answered. Counting happens under a lock per document
 * (PostgreSQL) or SQLite's write lock, so two at once cannot both pass the cap.
 */
export async function createShareLink(
  db: Db,
  document: DocumentRef,
  admin: { id: string },
  hold: (trx: Transaction<Database>) => Promise<boolean>,
  now = new Date(),
): Promise<{ id: string; token: string; createdAt: string; expiresAt: string } | undefined> {
  const createdAt = now.toISOString();
  return db.transaction().execute(async (trx) => {
    if (isPostgres(trx))
      await sql`select pg_advisory_xact_lock(${SHARE_LINKS_LOCK}, hashtext(${`${document.kind}:${document.id}`}))`.execute(
        trx,
      );
    if (!(await hold(trx))) return undefined;
    await trx
      .deleteFrom("share_links")
      .where((eb) => eb.or([eb("expires_at", "<=", createdAt), eb("revoked_at", "is not", null)]))
      .execute();
    const live = await ofDocument(trx.selectFrom("share_links"), document)
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow();
    if (Number(live.count) >= MAX_LIVE_SHARE_LINKS) throw new ShareLinkLimitError();
    const token = newSecretToken(SHARE_TOKEN_BYTES);
    const row = {
      id: randomUUID(),
      document_kind: document.kind,
      document_id: document.id,
      token_hash: hashSecretToken(token),
      created_by: admin.id,
      created_at: createdAt,
      expires_at: new Date(now.getTime() + SHARE_LINK_DAYS * DAY_MS).toISOString(),
    };
    await trx.insertInto("share_links").values(row).execute();
    return { id: row.id, token, createdAt, expiresAt: row.expires_at };
  });
}

/** The document's live links, newest first (at most MAX_LIVE_SHARE_LINKS); never their tokens. */
export async function listShareLinks(db: Db, document: DocumentRef, now = new Date()): Promise<ShareLinkItem[]> {
  return db
    .selectFrom("share_links")
    .innerJoin("admin_users", "admin_users.id", "share_links.created_by")
    .select([
      "share_links.id as id",
      "share_links.created_at as createdAt",
      "share_links.expires_at as expiresAt",
      "admin_users.email as createdBy",
    ])
    .where("share_links.document_kind", "=", document.kind)
    .where("share_links.document_id", "=", document.id)
    .where("share_links.revoked_at", "is", null)
    .where("share_links.expires_at", ">", now.toISOString())
    .orderBy("share_links.created_at", "desc")
    .orderBy("share_links.id")
    .limit(MAX_LIVE_SHARE_LINKS)
    .execute();
}

/** Revokes a live link of the document: its next request is a 404 in every process. False when there is none. */
export async function revokeShareLink(db: Db, document: DocumentRef, linkId: string, now = new Date()) {
  if (!isRecordId(linkId)) return false;
  const nowIso = now.toISOString();
  const result = await ofDocument(db.updateTable("share_links").set({ revoked_at: nowIso }), document)
    .where("id", "=", linkId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The document of `kind` a live link's token opens, and when the link ends;
 * undefined for an unknown, malformed, expired or revoked token alike.
 */
export async function findShareLink(db: Db, kind: DocumentKind, token: string, now = new Date()) {
  if (!isShareTokenShaped(token)) return undefined;
  const nowIso = now.toISOString();
  const link = await db
    .selectFrom("share_links")
    .select(["document_id", "expires_at"])
    .where("token_hash", "=", hashSecretToken(token))
    .where("document_kind", "=", kind)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso)
    .executeTakeFirst();
  return link && { documentId: link.document_id, expiresAt: link.expires_at };
}
