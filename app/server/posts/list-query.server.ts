import { z } from "zod";
import { DEFAULT_POST_SORT, MAX_TITLE_FILTER, POST_SORTS, type PostSort } from "~/lib/admin-lists";
import { searchText, type PageQuery, type QueryResult, pagedList } from "../platform/paging.server";

/**
 * The admin posts list's query string (docs/product/contract.md#paged-lists, ADR 026):
 * the platform's paging plus a title filter `q` and an order `sort`.
 * Parameters the list does not read are ignored, as by GET /api/posts.
 */

/** Case-insensitive "title contains"; empty means no filter. */
const titleFilter = searchText(MAX_TITLE_FILTER).transform((value) => value || undefined);

const sort = z.enum(POST_SORTS, { error: `sort must be one of ${POST_SORTS.join(", ")}` }).default(DEFAULT_POST_SORT);

const postLists = pagedList({ q: titleFilter.optional(), sort });

export interface PostListQuery extends PageQuery {
  /** Title contains this, ignoring case; `%` and `_` are plain characters. */
  q?: string;
  sort: PostSort;
}

/** GET /api/admin/posts: `limit` (1-100, default 50), `offset`, `q`, `sort`. */
export function parsePostListQuery(url: URL): QueryResult<PostListQuery> {
  return postLists.list(url);
}

/** /admin: `page` (1-based, ADMIN_PAGE_SIZE posts each), `q`, `sort`. */
export function parsePostScreenQuery(url: URL): QueryResult<PostListQuery & { page: number }> {
  return postLists.screen(url);
}
