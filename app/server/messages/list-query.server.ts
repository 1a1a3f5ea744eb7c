import { z } from "zod";
import { MAX_MESSAGE_SEARCH, READ_FILTERS, type ReadFilter } from "~/lib/admin-lists";
import { LEAD_FILTERS, LEAD_SORTS, type LeadFilter, type LeadSort } from "~/lib/leads";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { isStorableText } from "../platform/http.server";
import { parseQuery, searchText, type PageQuery, type QueryResult, pagedList } from "../platform/paging.server";

/**
 * The inbox's query strings (docs/product/contract.md#paged-lists, ADRs 035, 070): the
 * platform's paging plus a lead `status`, a read state `read`, an order `sort`
 * and a name or e-mail search `q`;
 * the CSV export takes the filter without paging, "delete all from a sender" an e-mail.
 */

/** Name or e-mail contains this, ignoring case (the inbox's search); bounded like the posts' title filter. */
const messageSearch = searchText(MAX_MESSAGE_SEARCH).transform((value) => value.trim() || undefined);

const leadFilter = z.enum(LEAD_FILTERS, { error: `status must be one of ${LEAD_FILTERS.join(", ")}` }).default("all");
const readFilter = z.enum(READ_FILTERS, { error: `read must be one of ${READ_FILTERS.join(", ")}` }).default("all");
const leadSort = z.enum(LEAD_SORTS, { error: `sort must be one of ${LEAD_SORTS.join(", ")}` }).default("newest");

const messageFilter = { status: leadFilter, read: readFilter, sort: leadSort, q: messageSearch.optional() };
const messageLists = pagedList(messageFilter);
const messageExportQuery = z.object(messageFilter);

/** The inbox's filter (ADRs 035, 070): lead status ("all": every one but spam), read state, order, and a name or e-mail search. */
export interface MessageFilter {
  status: LeadFilter;
  read: ReadFilter;
  sort: LeadSort;
  /** Name or e-mail contains this, ignoring case; `%` and `_` are plain characters. */
  q?: string;
}

export type MessageListQuery = PageQuery & MessageFilter;

/** GET /api/admin/messages: `limit` (1-100, default 50), `offset`, `status`, `read`, `sort`, `q`. */
export function parseMessageListQuery(url: URL): QueryResult<MessageListQuery> {
  return messageLists.list(url);
}

/** /admin/messages: `page` (1-based, ADMIN_PAGE_SIZE messages each), `status`, `read`, `sort`, `q`. */
export function parseMessageScreenQuery(url: URL): QueryResult<MessageListQuery & { page: number }> {
  return messageLists.screen(url);
}

/** GET /api/admin/messages.csv: `status`, `read`, `q` (every matching message, no paging). */
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
