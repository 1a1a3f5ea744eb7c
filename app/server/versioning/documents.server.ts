import type { Transaction } from "kysely";
import type { Database } from "../db/schema.server";

/**
 * What the versioning engine keys everything by (ADR 064): a document's kind
 * and its id within that kind. A post's id is its UUID; a page's is its name
 * (`landing`, `about`, `contact`). A later kind plugs in by adding its name here.
 */
export type DocumentKind = "post" | "page";

export interface DocumentRef {
  kind: DocumentKind;
  id: string;
}

/** Every draft, revision and share link of a document, deleted in the transaction that deletes it. */
export async function forgetDocument(trx: Transaction<Database>, document: DocumentRef): Promise<void> {
  for (const table of ["document_drafts", "document_revisions", "share_links"] as const) {
    await trx
      .deleteFrom(table)
      .where("document_kind", "=", document.kind)
      .where("document_id", "=", document.id)
      .execute();
  }
}
