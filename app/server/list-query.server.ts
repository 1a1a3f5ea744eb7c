import { z } from "zod";
import {
  ADMIN_PAGE_SIZE,
  DEFAULT_POST_SORT,
  MAX_ADMIN_PAGE,
  MAX_OFFSET,
  MAX_PAGE_SIZE,
  MAX_TITLE_FILTER,
  POST_SORTS,
  type PostSort,
} from "~/lib/admin-lists";
import { AUDIT_ACTIONS } from "~/lib/audit";
import type { AuditQuery } from "./audit.server";
import { isRecordId } from "./db/ids.server";
import { isStorableText } from "./http.server";

/**
 * The query strings of the admin's paged lists (PRODUCT §3, ADR 026): the API
 * takes `limit` and `offset`, the screens a 1-based `page`; the posts list
 * also takes a title filter `q` and an order `sort`. Every value is bounded
 * before any work is done with it; anything else is a 400 whose message names
 * the parameter. Parameters a list does not read are ignored, as by
 * GET /api/posts.
 */

/** At most nine digits: no exponent, sign, space or hex, and a number JavaScript holds exactly. */
const DIGITS = /^\d{1,9}$/;

function wholeNumber(name: string, min: number, max: number) {
  const error = `${name} must be a whole number from ${min} to ${max.toLocaleString("en-US")}`;
  return z
    .string()
    .regex(DIGITS, { error })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error });
}

/** Case-insensitive "title contains"; empty means no filter. */
const titleFilter = z
  .string()
  .max(MAX_TITLE_FILTER, { error: `q is too long (${MAX_TITLE_FILTER} characters at most)`, abort: true })
  // NUL cannot be sent to PostgreSQL (the same rule as for bodies, http.server.ts).
  .refine(isStorableText, {
    error: "q contains a character that cannot be searched for (a NUL character or an unpaired surrogate)",
  })
  .transform((value) => value || undefined);

const sort = z.enum(POST_SORTS, { error: `sort must be one of ${POST_SORTS.join(", ")}` }).default(DEFAULT_POST_SORT);

const limit = wholeNumber("limit", 1, MAX_PAGE_SIZE).default(ADMIN_PAGE_SIZE);
const offset = wholeNumber("offset", 0, MAX_OFFSET).default(0);
const page = wholeNumber("page", 1, MAX_ADMIN_PAGE).default(1);

const postListQuery = z.object({ limit, offset, q: titleFilter.optional(), sort });
const messageListQuery = z.object({ limit, offset });
const postScreenQuery = z.object({ page, q: titleFilter.optional(), sort });
const messageScreenQuery = z.object({ page });
// The audit log (ADR 038): by action and by administrator (an id); empty means all.
const auditAction = z
  .union([z.literal(""), z.enum(AUDIT_ACTIONS)], { error: `action must be one of ${AUDIT_ACTIONS.join(", ")}` })
  .transform((value) => value || undefined)
  .optional();
const auditAdmin = z
  .string()
  .refine((value) => value === "" || isRecordId(value), { error: "admin must be an administrator's id" })
  .transform((value) => value || undefined)
  .optional();
const auditListQuery = z.object({ limit, offset, action: auditAction, admin: auditAdmin });
const auditScreenQuery = z.object({ page, action: auditAction, admin: auditAdmin });

export interface PageQuery {
  limit: number;
  offset: number;
}

export interface PostListQuery extends PageQuery {
  /** Title contains this, ignoring case; `%` and `_` are plain characters. */
  q?: string;
  sort: PostSort;
}

export type QueryResult<T> = { ok: true; value: T } | { ok: false; message: string };

function parseQuery<S extends z.ZodObject>(schema: S, url: URL): QueryResult<z.output<S>> {
  const input = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, url.searchParams.get(key) ?? undefined]),
  );
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]!.message };
}

/** GET /api/admin/posts: `limit` (1-100, default 50), `offset`, `q`, `sort`. */
export function parsePostListQuery(url: URL): QueryResult<PostListQuery> {
  return parseQuery(postListQuery, url);
}

/** GET /api/admin/messages: `limit` (1-100, default 50), `offset`. */
export function parseMessageListQuery(url: URL): QueryResult<PageQuery> {
  return parseQuery(messageListQuery, url);
}

const screenPage = (page: number): PageQuery & { page: number } => ({
  page,
  limit: ADMIN_PAGE_SIZE,
  offset: (page - 1) * ADMIN_PAGE_SIZE,
});

/** /admin: `page` (1-based, ADMIN_PAGE_SIZE posts each), `q`, `sort`. */
export function parsePostScreenQuery(url: URL): QueryResult<PostListQuery & { page: number }> {
  const parsed = parseQuery(postScreenQuery, url);
  if (!parsed.ok) return parsed;
  const { page, ...rest } = parsed.value;
  return { ok: true, value: { ...rest, ...screenPage(page) } };
}

/** /admin/messages: `page` (1-based, ADMIN_PAGE_SIZE messages each). */
export function parseMessageScreenQuery(url: URL): QueryResult<PageQuery & { page: number }> {
  const parsed = parseQuery(messageScreenQuery, url);
  return parsed.ok ? { ok: true, value: screenPage(parsed.value.page) } : parsed;
}

/** GET /api/admin/audit: `limit` (1-100, default 50), `offset`, `action`, `admin`. */
export function parseAuditListQuery(url: URL): QueryResult<AuditQuery> {
  return parseQuery(auditListQuery, url);
}

/** /admin/audit: `page`, `action`, `admin`. */
export function parseAuditScreenQuery(url: URL): QueryResult<AuditQuery & { page: number }> {
  const parsed = parseQuery(auditScreenQuery, url);
  if (!parsed.ok) return parsed;
  const { page, ...rest } = parsed.value;
  return { ok: true, value: { ...rest, ...screenPage(page) } };
}
