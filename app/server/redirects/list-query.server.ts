import { z } from "zod";
import { REDIRECT_LIMITS } from "~/lib/redirects";
import { limit, offset, parseQuery, searchText, type QueryResult, pagedList } from "../platform/paging.server";
import type { RedirectQuery } from "./redirects.server";

/**
 * The query strings of the redirects and the not-found log
 * (docs/product/contract.md#paged-lists): the platform's paging, and for the
 * redirects a search `q` (from or to contains it), bounded like a `to`.
 */

const redirectSearch = searchText(REDIRECT_LIMITS.to).transform((value) => value.trim() || undefined);
const redirectLists = pagedList({ q: redirectSearch.optional() });
const notFoundListQuery = z.object({ limit, offset });

/** GET /api/admin/redirects: `limit` (1-100, default 50), `offset`, `q`. */
export function parseRedirectListQuery(url: URL): QueryResult<RedirectQuery> {
  return redirectLists.list(url);
}

/** /admin/redirects: `page`, `q`. */
export function parseRedirectScreenQuery(url: URL): QueryResult<RedirectQuery & { page: number }> {
  return redirectLists.screen(url);
}

/** GET /api/admin/not-found: `limit`, `offset`; the screen's `page` is parsed as the redirects' is. */
export function parseNotFoundListQuery(url: URL): QueryResult<{ limit: number; offset: number }> {
  return parseQuery(notFoundListQuery, url);
}
