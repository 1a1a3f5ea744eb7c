/** The posts domain's interface: what routes, server/ and other domains may use (README.md here). */
export { init } from "./init.server";
export {
  countSitemapCategories,
  currentCategory,
  listCategoryFeedArticles,
  listCategorySummaries,
  listCategoryUrls,
} from "./category-posts.server";
export { fillCategorySlugs } from "./category-slugs.server";
export {
  buildRobots,
  buildRss,
  buildSitemap,
  buildSitemapIndex,
  holdsFirstListPage,
  cacheableText,
  FEED_SIZE,
  parseSitemapFile,
  sitemapLayout,
} from "./feeds.server";
export { parsePostListQuery, parsePostScreenQuery } from "./list-query.server";
export {
  closeMarkdownWorker,
  enableMarkdownWorker,
  MarkdownRenderError,
  renderMarkdownSafely,
} from "./markdown.server";
export { renderPostBody } from "./post-body.server";
export { EDIT_CONFLICT_MESSAGE, editConflictResponse, parseBaseUpdatedAt } from "./post-conflict.server";
export { MAX_POST_TEXT, parsePostInput, postInputSchema } from "./post-input.server";
export {
  type Autosave,
  deleteAutosave,
  findRevision,
  listRevisions,
  MAX_REVISIONS,
  readAutosave,
  type Revision,
  type RevisionSummary,
  writeAutosave,
} from "./post-revisions.server";
export {
  countPosts,
  createPost,
  deletePost,
  EditConflictError,
  findPostById,
  listAdminPosts,
  SlugTakenError,
  updatePost,
} from "./posts.server";
export { currentListShape } from "./public-list.server";
export { type AdminPost, type Article, type Neighbour, type PostSummary } from "./post-shape.server";
export {
  findPublicArticle,
  findPublicPost,
  lastPublicChange,
  listFeedArticles,
  listPublicPosts,
  listPublicSummaries,
  listPublicUrls,
} from "./public-posts.server";
export { renameReservedSlugs } from "./reserved-slugs.server";
export { refundSearch, reserveSearch, SEARCH_RETRY_SECONDS, SearchBusyError, searchPosts } from "./search.server";
export {
  createShareLink,
  findPreviewArticle,
  listShareLinks,
  ShareLinksError,
  revokeShareLink,
} from "./share-links.server";
export { warnIfTitleSearchUnindexed } from "./title-search.server";
export { checkBeforePublishing, parsePublishCheckInput } from "./publish-check.server";
export { queueRestoredPublications } from "./post-events.server";
