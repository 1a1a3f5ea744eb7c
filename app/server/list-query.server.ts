import { z } from "zod";
import {
  ADMIN_PAGE_SIZE,
  DEFAULT_POST_SORT,
  MAX_ADMIN_PAGE,
  MAX_OFFSET,
  MAX_PAGE_SIZE,
  MAX_MESSAGE_SEARCH,
  MAX_TITLE_FILTER,
  MESSAGE_STATUSES,
  type MessageStatus,
  POST_SORTS,
  type PostSort,
} from "~/lib/admin-lists";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { AUDIT_ACTIONS } from "~/lib/audit";
import type { AuditQuery } from "./audit.server";
import { isRecordId } from "./db/ids.server";
import { isStorableText } from "./http.server";

/**
 * The query strings of the admin's paged lists (docs/product/contract.md#paged-lists, ADR 026): the API
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

/** Name or e-mail contains this, ignoring case (the inbox's search); bounded like the title filter. */
const messageSearch = z
  .string()
  .max(MAX_MESSAGE_SEARCH, { error: `q is too long (${MAX_MESSAGE_SEARCH} characters at most)`, abort: true })
  .refine(isStorableText, {
    error: "q contains a character that cannot be searched for (a NUL character or an unpaired surrogate)",
  })
  .transform((value) => value.trim() || undefined);

const messageStatus = z
  .enum(MESSAGE_STATUSES, { error: `status must be one of ${MESSAGE_STATUSES.join(", ")}` })
  .default("all");

const sort = z.enum(POST_SORTS, { error: `sort must be one of ${POST_SORTS.join(", ")}` }).default(DEFAULT_POST_SORT);

const limit = wholeNumber("limit", 1, MAX_PAGE_SIZE).default(ADMIN_PAGE_SIZE);
const offset = wholeNumber("offset", 0, MAX_OFFSET).default(0);
const page = wholeNumber("page", 1, MAX_ADMIN_PAGE).default(1);

const postListQuery = z.object({ limit, offset, q: titleFilter.optional(), sort });
const messageFilter = { status: messageStatus, q: messageSearch.optional() };
const messageListQuery = z.object({ limit, offset, ...messageFilter });
const postScreenQuery = z.object({ page, q: titleFilter.optional(), sort });
const messageScreenQuery = z.object({ page, ...messageFilter });
const messageExportQuery = z.object(messageFilter);
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

/** The inbox's filter (ADR 035): read state and a name or e-mail search. */
export interface MessageFilter {
  status: MessageStatus;
  /** Name or e-mail contains this, ignoring case; `%` and `_` are plain characters. */
  q?: string;
}

export type MessageListQuery = PageQuery & MessageFilter;

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

/** GET /api/admin/messages: `limit` (1-100, default 50), `offset`, `status`, `q`. */
export function parseMessageListQuery(url: URL): QueryResult<MessageListQuery> {
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

/** /admin/messages: `page` (1-based, ADMIN_PAGE_SIZE messages each), `status`, `q`. */
export function parseMessageScreenQuery(url: URL): QueryResult<MessageListQuery & { page: number }> {
  const parsed = parseQuery(messageScreenQuery, url);
  if (!parsed.ok) return parsed;
  const { page, ...filter } = parsed.value;
  return { ok: true, value: { ...filter, ...screenPage(page) } };
}

/** GET /api/admin/messages.csv: `status`, `q` (every matching message, no paging). */
export function parseMessageExportQuery(url: URL): QueryResult<MessageFilter> {
  return parseQuery(messageExportQuery, url);
}

const senderEmail = z
  .string({ error: "email is required: the sender's e-mail address" })
  .max(EMAIL_MAX_LENGTH, { error: `email is too long (${EMAIL_MAX_LENGTH} characters at most)`, abort: true })
  .refine(isStorableText, {
    error: "email contains a character that cannot be stored (a NUL character or an unpaired surrogate)",
    abort: true,
  })
  .transform((value) => value.trim())
  .refine((value) => value.length > 0, { error: "email is required: the sender's e-mail address" });
const senderQuery = z.object({ email: senderEmail });

/** DELETE /api/admin/messages?email=: the sender whose messages all go (ADR 035). */
export function parseSenderQuery(url: URL): QueryResult<{ email: string }> {
  return parseQuery(senderQuery, url);
}

/** The same rule for the inbox screen's "delete all from this sender" form field. */
export function parseSender(value: unknown): QueryResult<string> {
  const parsed = senderEmail.safeParse(value ?? undefined);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]!.message };
}

const imageListQuery = z.object({
  limit,
  offset,
  unused: z.enum(["0", "1"], { error: "unused must be 0 or 1" }).default("0"),
});

/** GET /api/admin/images: `limit` (1-100, default 50), `offset`, `unused` (1: only images no post uses). ADR 036. */
export function parseImageListQuery(url: URL): QueryResult<PageQuery & { unused: boolean }> {
  const parsed = parseQuery(imageListQuery, url);
  return parsed.ok
    ? {
        ok: true,
        value: { limit: parsed.value.limit, offset: parsed.value.offset, unused: parsed.value.unused === "1" },
      }
    : parsed;
}

/** /admin/images: `page` (1-based, ADMIN_PAGE_SIZE images each). */
export function parseImageScreenQuery(url: URL): QueryResult<PageQuery & { page: number }> {
  return parseMessageScreenQuery(url);
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
