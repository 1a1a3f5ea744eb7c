import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { MAX_REVISIONS } from "~/lib/revisions";
import type { Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import type { Database } from "../db/schema.server";
import type { DocumentRef } from "./documents.server";

/**
 * Revisions of any document (ADR 043, 053, 064): a saved state, numbered per
 * document, written inside the transaction that saves the document, the
 * newest MAX_REVISIONS of a document kept. Restoring one is the kind's own
 * save of its state; comparing two is the editor's.
 */

export { MAX_REVISIONS };

/** A revision in a list: who saved it and when, without its state. */
export interface RevisionSummary {
  id: string;
  number: number;
  label: string;
  savedAt: string;
  savedBy: string | null;
}

/** One revision whole; `state` as the kind stored it. */
export interface StoredRevision<State> extends RevisionSummary {
  state: State;
}

interface NewRevision {
  state: unknown;
  label?: string;
  savedById?: string | null;
  savedBy: string | null;
  at: string;
  /** The number to keep it under (a page's published version); by default the next one. */
  number?: number;
}

/**
 * Inside the document's save: keeps `revision` and deletes the oldest beyond
 * MAX_REVISIONS. A given number already kept is left as it was. The caller
 * holds the document's lock (its row, or the page's), so saves number in turn.
 */
export async function keepRevision(
  trx: Transaction<Database>,
  document: DocumentRef,
  revision: NewRevision,
): Promise<number> {
  let number = revision.number;
  if (number === undefined) {
    const last = await ofDocument(trx.selectFrom("document_revisions"), document)
      .select((eb) => eb.fn.max("number").as("number"))
      .executeTakeFirst();
    number = Number(last?.number ?? 0) + 1;
  }
  await trx
    .insertInto("document_revisions")
    .values({
      id: randomUUID(),
      document_kind: document.kind,
      document_id: document.id,
      number,
      label: revision.label ?? "",
      state: JSON.stringify(revision.state),
      saved_by_id: revision.savedById ?? null,
      saved_by: revision.savedBy,
      saved_at: revision.at,
    })
    .onConflict((conflict) => conflict.columns(["document_kind", "document_id", "number"]).doNothing())
    .execute();
  await ofDocument(trx.deleteFrom("document_revisions"), document)
    .where("number", "<=", number - MAX_REVISIONS)
    .execute();
  return number;
}

/** The document's kept revisions, newest first: at most MAX_REVISIONS. */
export async function listRevisions(db: Db, document: DocumentRef): Promise<RevisionSummary[]> {
  const rows = await ofDocument(db.selectFrom("document_revisions"), document)
    .select(["id", "number", "label", "saved_at", "saved_by"])
    .orderBy("number", "desc")
    .limit(MAX_REVISIONS)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    number: Number(row.number),
    label: row.label,
    savedAt: row.saved_at,
    savedBy: row.saved_by,
  }));
}

/** One revision of this document; undefined when there is none or it is another document's. */
export async function findRevision<State>(
  db: Db,
  document: DocumentRef,
  id: string,
): Promise<StoredRevision<State> | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await ofDocument(db.selectFrom("document_revisions"), document)
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    number: Number(row.number),
    label: row.label,
    savedAt: row.saved_at,
    savedBy: row.saved_by,
    state: JSON.parse(row.state) as State,
  };
}

/** A query of a versioning table: each has the document's two columns. */
interface OfDocuments<Q> {
  where(column: "document_kind" | "document_id", op: "=", value: string): Q;
}

/** A query narrowed to one document's rows. */
export function ofDocument<Q extends OfDocuments<Q>>(query: Q, document: DocumentRef): Q {
  return query.where("document_kind", "=", document.kind).where("document_id", "=", document.id);
}
