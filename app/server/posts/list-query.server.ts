import { z } from "zod";
import { DEFAULT_POST_SORT, MAX_TITLE_FILTER, POST_SORTS, type PostSort } from "~/lib/admin-lists";
import {
  limit,
  offset,
  page,
  parseQuery,
  screenPage,
  searchText,
  type PageQuery,
  type QueryResult,
} from "../platform/paging.server";

/**
 * The admin posts list's query string (docs/product/contract.md#paged-lists, ADR 026):
 * the platform's paging plus a title filter `q` and an order `sort`.
 * Parameters the list does not read are ignored, as by GET /api/posts.
 */

/** Case-insensitive "title contains"; empty means no filter. */
const titleFilter = searchText(MAX_TITLE_FILTER).transform((value) => value || undefined);

const sort = z.enum(POST_SORTS, { error: `sort must be one of ${POST_SORTS.join(", ")}` }).default(DEFAULT_POST_SORT);

const postListQuery = z.object({ limit, offset, q: titleFilter.optional(), sort });
const postScreenQuery = z.object({ page, q: titleFilter.optional(), sort });

export interface PostListQuery extends PageQuery {
  /** Title contains this, ignoring case; `%` and `_` are plain characters. */
  q?: string;
  sort: PostSort;
}

/** GET /api/admin/posts: `limit` (1-100, default 50), `offset`, `q`, `sort`. */
export function parsePostListQuery(url: URL): QueryResult<PostListQuery> {
  return parseQuery(postListQuery, url);
}

/** /admin: `page` (1-based, ADMIN_PAGE_SIZE posts each), `q`, `sort`. */
export function parsePostScreenQuery(url: URL): QueryResult<PostListQuery & { page: number }> {
  const parsed = parseQuery(postScreenQuery, url);
  if (!parsed.ok) return parsed;
  const { page, ...rest } = parsed.value;
  return { ok: true, value: { ...rest, ...screenPage(page) } };
}
