/** The versioning domain's interface: drafts, revisions and share links of any document (README.md here). */
export { forgetDocument, type DocumentRef } from "./documents.server";
export { deleteDraft, DraftConflictError, readDraft, writeDraft, type StoredDraft } from "./drafts.server";
export { findRevision, keepRevision, listRevisions, MAX_REVISIONS } from "./revisions.server";
export {
  createShareLink,
  findShareLink,
  listShareLinks,
  revokeShareLink,
  ShareLinkLimitError,
} from "./share-links.server";
