import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import type { Database } from "../db/schema.server";
import { ofDocument } from "./revisions.server";
import type { DocumentRef } from "./documents.server";

/**
 * Drafts of any document (ADR 043, 053, 064): the unsaved state autosave
 * keeps, apart from the document, so visitors and the page cache see nothing
 * of it. A draft is an administrator's own (posts: `owner` their id) or the
 * document's one shared draft (pages: `owner` null). Each save is numbered;
 * a save that names the number it was made over is refused when another
 * save came between (a second tab, another administrator).
 */

export interface StoredDraft<State> {
  state: State;
  /** The saved version of the document it was made over (a post's updatedAt, a page's version). */
  baseVersion: string;
  /** 1, 2, 3... per save of this draft. */
  draftVersion: number;
  savedAt: string;
  savedBy: string | null;
}

/** The draft changed since the tab last saw it. */
export class DraftConflictError extends Error {
  constructor(readonly draftVersion: number) {
    super("This page's draft was changed in another tab or by another administrator. Reload to see it.");
  }
}

type Reader = Db | Transaction<Database>;

/** A query of the drafts: narrowed to a document's, then to its owner's (null: the shared one). */
interface OfOwners<Q> {
  where(column: "document_kind" | "document_id" | "admin_id", op: "=" | "is", value: string | null): Q;
}

const ofOwner = <Q extends OfOwners<Q>>(query: Q, document: DocumentRef, owner: string | null) =>
  ofDocument(query, document).where("admin_id", owner === null ? "is" : "=", owner);

export async function readDraft<State>(
  db: Reader,
  document: DocumentRef,
  owner: string | null,
): Promise<StoredDraft<State> | undefined> {
  const row = await ofOwner(db.selectFrom("document_drafts"), document, owner).selectAll().executeTakeFirst();
  if (!row) return undefined;
  return {
    state: JSON.parse(row.state) as State,
    baseVersion: row.base_version,
    draftVersion: Number(row.draft_version),
    savedAt: row.saved_at,
    savedBy: row.saved_by,
  };
}

interface DraftWrite<State> {
  owner: string | null;
  state: State;
  baseVersion: string;
  savedBy: string | null;
  savedAt: string;
  /** The draft version the tab saw (0: none); without it the draft is replaced whatever came between. */
  overDraftVersion?: number;
}

/**
 * Inside the caller's transaction: writes the draft over the one before.
 * Throws DraftConflictError when `overDraftVersion` is not the stored one;
 * two first saves at once meet the same way (the second's insert conflicts).
 */
export async function writeDraft<State>(
  trx: Transaction<Database>,
  document: DocumentRef,
  draft: DraftWrite<State>,
): Promise<StoredDraft<State>> {
  const query = ofOwner(trx.selectFrom("document_drafts"), document, draft.owner).select("draft_version");
  const current = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  const currentVersion = current ? Number(current.draft_version) : 0;
  if (draft.overDraftVersion !== undefined && currentVersion !== draft.overDraftVersion)
    throw new DraftConflictError(currentVersion);
  const row = {
    state: JSON.stringify(draft.state),
    base_version: draft.baseVersion,
    draft_version: currentVersion + 1,
    saved_at: draft.savedAt,
    saved_by: draft.savedBy,
  };
  const written = await trx
    .insertInto("document_drafts")
    .values({ id: randomUUID(), document_kind: document.kind, document_id: document.id, admin_id: draft.owner, ...row })
    .onConflict((conflict) => {
      const target =
        draft.owner === null
          ? conflict.columns(["document_kind", "document_id"]).where("admin_id", "is", null)
          : conflict.columns(["document_kind", "document_id", "admin_id"]);
      const update = target.doUpdateSet(row);
      return draft.overDraftVersion === undefined
        ? update
        : update.where("document_drafts.draft_version", "=", currentVersion);
    })
    .executeTakeFirst();
  if (Number(written.numInsertedOrUpdatedRows ?? 0) === 0) throw new DraftConflictError(currentVersion + 1);
  const { state, baseVersion, savedAt, savedBy } = draft;
  return { state, baseVersion, draftVersion: currentVersion + 1, savedAt, savedBy };
}

/** True when there was a draft to delete. */
export async function deleteDraft(db: Reader, document: DocumentRef, owner: string | null): Promise<boolean> {
  const result = await ofOwner(db.deleteFrom("document_drafts"), document, owner).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
