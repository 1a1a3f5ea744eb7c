import type { LeadFilter, LeadSort } from "./leads";

/**
 * The admin's paged lists (docs/product/contract.md#paged-lists: GET /api/admin/posts and
 * /api/admin/messages, and the /admin and /admin/messages screens that show
 * them). Shared by the server, which parses and bounds the query, and the
 * screens, which build their links and inputs from the same numbers. ADR 026.
 */

/** Items per page when `limit` is not given, and per page of the admin screens. */
export const ADMIN_PAGE_SIZE = 50;
/** The largest `limit` (1-100, docs/product/contract.md#paged-lists). */
export const MAX_PAGE_SIZE = 100;
/**
 * The largest `offset`. A database walks past every skipped row, so the bound
 * keeps one request's work bounded; 1,000,000 rows is ten times the largest
 * site we plan for, and the other sort order reaches the far end of any list.
 */
export const MAX_OFFSET = 1_000_000;
/** The longest title filter (`q`), in UTF-16 code units. */
export const MAX_TITLE_FILTER = 200;

/** The longest inbox search (`q`, name or e-mail contains), in UTF-16 code units. */
export const MAX_MESSAGE_SEARCH = 200;

/** The inbox's read-state filter (`read`); "all" is the default and is left out of addresses. */
export const READ_FILTERS = ["all", "unread", "read"] as const;
export type ReadFilter = (typeof READ_FILTERS)[number];

/** An inbox view (ADRs 035, 070): lead status, read state, order, search and page. */
export interface InboxView {
  page?: number;
  q?: string;
  status?: LeadFilter;
  read?: ReadFilter;
  sort?: LeadSort;
}

/** Where the inbox's "Export CSV" points (a plain Express route, server/app.ts); its query is the inbox's filter. */
export const MESSAGES_CSV_PATH = "/api/admin/messages.csv";

/** The address of an inbox view; defaults are left out, so each view has one spelling. ADR 035. */
export function messagesHref(
  { page = 1, q = "", status = "all", read = "all", sort = "newest" }: InboxView = {},
  path = "/admin/messages",
): string {
  const params = new URLSearchParams();
  if (status !== "all") params.set("status", status);
  if (read !== "all") params.set("read", read);
  if (sort !== "newest") params.set("sort", sort);
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The orders of the admin's posts list (`sort`), each a field, descending
 * when it starts with "-". The first is the contract's default: newest
 * publishDate first.
 */
export const POST_SORTS = ["-publishDate", "publishDate", "title", "-title"] as const;
export type PostSort = (typeof POST_SORTS)[number];
export const DEFAULT_POST_SORT: PostSort = "-publishDate";

/** What the screens call each order. */
export const POST_SORT_LABELS: Record<PostSort, string> = {
  "-publishDate": "Newest first",
  publishDate: "Oldest first",
  title: "Title A to Z",
  "-title": "Title Z to A",
};

/** The number of pages for `total` items; an empty list still has its one (empty) page. */
export function pageCount(total: number, pageSize = ADMIN_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The last page a screen can show: what MAX_OFFSET lets its offset reach. */
export const MAX_ADMIN_PAGE = Math.floor(MAX_OFFSET / ADMIN_PAGE_SIZE) + 1;

/** The address of an admin list screen's view; defaults are left out, so each view has one spelling. */
export function adminListHref(
  path: "/admin" | "/admin/messages" | "/admin/images",
  { page = 1, q = "", sort = DEFAULT_POST_SORT }: { page?: number; q?: string; sort?: PostSort } = {},
): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (sort !== DEFAULT_POST_SORT) params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** "1 post", "10,000 posts". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? singular : plural}`;
}
