/** The site-content domain's interface: what routes, server/ and other domains may use (README.md here). */
export {
  ContentConflictError,
  listContentRevisions,
  MAX_CONTENT_REVISIONS,
  publishContent,
  publishedContent,
  publishedPage,
  readContentRevision,
  readPublished,
  type ContentRevision,
  type ContentRevisionSummary,
} from "./documents.server";
export { discardDraft, DraftConflictError, readDraft, saveDraft, type ContentDraft } from "./drafts.server";
export { previewDocument } from "./preview.server";
export { listContentSummaries } from "./summaries.server";
export {
  createPageShareLink,
  isLivePageShareLink,
  listPageShareLinks,
  PageShareLinkError,
  revokePageShareLink,
} from "./share-links.server";
export {
  checkedDocument,
  contentEtag,
  contentNameOf,
  ifMatchVersion,
  readContentBody,
  versionField,
} from "./requests.server";
