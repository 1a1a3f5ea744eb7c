import type { ContentDocuments, ContentName } from "~/lib/site-content";
import type { Db } from "../db/db.server";
import { readPublished } from "./documents.server";
import { readDraft } from "./drafts.server";

/**
 * What the editor's Preview and a share link show (ADR 053): the page with
 * its draft, or with the published document when there is no draft.
 */
export async function previewDocument<N extends ContentName>(
  db: Db,
  name: N,
): Promise<{ document: ContentDocuments[N]; isDraft: boolean }> {
  const draft = await readDraft(db, name);
  if (draft) return { document: draft.document, isDraft: true };
  return { document: (await readPublished(db, name)).document, isDraft: false };
}
