import type { ContentDocuments, ContentName } from "~/lib/site-content";
import type { Db } from "../db/db.server";
import {
  deleteDraft,
  DraftConflictError,
  readDraft as readStoredDraft,
  writeDraft,
  type DocumentRef,
  type StoredDraft,
} from "../versioning/index.server";
import { keepingPageImages } from "./page-images.server";

/**
 * The one draft of each page (ADR 053), kept by the versioning domain as the
 * page's shared draft (ADR 064): the Pages editor autosaves into it,
 * visitors never see it, its preview and share links show it. Every save
 * names the draft version it was made over, so a second tab or another
 * administrator saving over a draft they have not seen gets a conflict
 * (DraftConflictError) instead of overwriting it. Publishing from the editor deletes it.
 */

export { DraftConflictError };

export interface ContentDraft<N extends ContentName = ContentName> {
  document: ContentDocuments[N];
  /** The published version it was made from. */
  baseVersion: number;
  /** 1, 2, 3... per save. */
  draftVersion: number;
  savedAt: string;
  savedBy: string | null;
}

export const pageDocument = (name: ContentName): DocumentRef => ({ kind: "page", id: name });

function toContentDraft<N extends ContentName>(draft: StoredDraft<ContentDocuments[N]>): ContentDraft<N> {
  return {
    document: draft.state,
    baseVersion: Number(draft.baseVersion),
    draftVersion: draft.draftVersion,
    savedAt: draft.savedAt,
    savedBy: draft.savedBy,
  };
}

export async function readDraft<N extends ContentName>(db: Db, name: N): Promise<ContentDraft<N> | undefined> {
  const draft = await readStoredDraft<ContentDocuments[N]>(db, pageDocument(name), null);
  return draft && toContentDraft(draft);
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
  const write = {
    owner: null,
    state: draft.document,
    baseVersion: String(draft.baseVersion),
    overDraftVersion: draft.overDraftVersion,
    savedBy: draft.by,
    savedAt: now.toISOString(),
  };
  return db
    .transaction()
    .execute((trx) =>
      keepingPageImages(trx, name, async () => toContentDraft(await writeDraft(trx, pageDocument(name), write))),
    );
}

/** Drops the page's draft (the editor's "Discard draft"). */
export async function discardDraft(db: Db, name: ContentName): Promise<void> {
  await db
    .transaction()
    .execute((trx) => keepingPageImages(trx, name, () => deleteDraft(trx, pageDocument(name), null)));
}
