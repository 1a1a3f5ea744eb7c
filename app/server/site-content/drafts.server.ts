import type { Transaction } from "kysely";
import type { ContentDocuments, ContentName } from "~/lib/site-content";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import type { Database } from "../db/schema.server";
import { keepingPageImages } from "./page-images.server";

/**
 * The one draft of each page (ADR 053): the Pages editor autosaves into it,
 * visitors never see it, its preview and share links show it. Every save
 * names the draft version it was made over, so a second tab or another
 * administrator saving over a draft they have not seen gets a conflict
 * instead of overwriting it. Publishing from the editor deletes it.
 */

export interface ContentDraft<N extends ContentName = ContentName> {
  document: ContentDocuments[N];
  /** The published version it was made from. */
  baseVersion: number;
  /** 1, 2, 3... per save. */
  draftVersion: number;
  savedAt: string;
  savedBy: string | null;
}

/** The draft changed since the tab last saw it (another tab saved it, or it was published). */
export class DraftConflictError extends Error {
  constructor(readonly draftVersion: number) {
    super("This page's draft was changed in another tab or by another administrator. Reload to see it.");
  }
}

export async function readDraft<N extends ContentName>(db: Db, name: N): Promise<ContentDraft<N> | undefined> {
  const row = await db.selectFrom("site_content_drafts").selectAll().where("name", "=", name).executeTakeFirst();
  if (!row) return undefined;
  return {
    document: JSON.parse(row.document) as ContentDocuments[N],
    baseVersion: Number(row.base_version),
    draftVersion: Number(row.draft_version),
    savedAt: row.saved_at,
    savedBy: row.saved_by,
  };
}

/**
 * Saves a checked draft over draft version `overDraftVersion` (0: there was
 * none when the tab opened the page). A draft saved meanwhile by someone
 * else is refused with DraftConflictError.
 */
export async function saveDraft<N extends ContentName>(
  db: Db,
  name: N,
  draft: { document: ContentDocuments[N]; baseVersion: number; overDraftVersion: number; by: string },
  now = new Date(),
): Promise<ContentDraft<N>> {
  const savedAt = now.toISOString();
  return db.transaction().execute((trx) => keepingPageImages(trx, name, () => writeDraft(trx, name, draft, savedAt)));
}

async function writeDraft<N extends ContentName>(
  trx: Transaction<Database>,
  name: N,
  draft: { document: ContentDocuments[N]; baseVersion: number; overDraftVersion: number; by: string },
  savedAt: string,
): Promise<ContentDraft<N>> {
  const query = trx.selectFrom("site_content_drafts").select("draft_version").where("name", "=", name);
  const current = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  const currentVersion = current ? Number(current.draft_version) : 0;
  if (currentVersion !== draft.overDraftVersion) throw new DraftConflictError(currentVersion);
  const row = {
    document: JSON.stringify(draft.document),
    base_version: draft.baseVersion,
    draft_version: currentVersion + 1,
    saved_at: savedAt,
    saved_by: draft.by,
  };
  // Two first saves at once: the second's insert conflicts and is refused like any late save.
  const written = await trx
    .insertInto("site_content_drafts")
    .values({ name, ...row })
    .onConflict((conflict) =>
      conflict.column("name").doUpdateSet(row).where("site_content_drafts.draft_version", "=", currentVersion),
    )
    .executeTakeFirst();
  if (Number(written.numInsertedOrUpdatedRows ?? 0) === 0) throw new DraftConflictError(currentVersion + 1);
  return {
    document: draft.document,
    baseVersion: draft.baseVersion,
    draftVersion: currentVersion + 1,
    savedAt,
    savedBy: draft.by,
  };
}

/** Drops the page's draft (the editor's "Discard draft"). */
export async function discardDraft(db: Db, name: ContentName): Promise<void> {
  await db
    .transaction()
    .execute((trx) =>
      keepingPageImages(trx, name, () => trx.deleteFrom("site_content_drafts").where("name", "=", name).execute()),
    );
}
