import { z } from "zod";
import { ADMIN_PAGE_SIZE, MAX_ADMIN_PAGE, MAX_OFFSET, MAX_PAGE_SIZE } from "~/lib/admin-lists";
import { isStorableText, jsonError } from "./http.server";

/**
 * The one parser of page parameters (docs/product/contract.md#paged-lists, ADR 026):
 * the API takes `limit` and `offset`, the admin screens a 1-based `page`. Each
 * domain builds its list's query string from these pieces and adds its own
 * filters; every value is bounded before any work is done with it, and a bad
 * one is a 400 whose message names the parameter.
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

/**
 * A list's search text `q`: its length bounded before any pattern runs, and
 * only characters a database can be sent (no NUL, no unpaired surrogate, the
 * same rule as for bodies in http.server.ts).
 */
export function searchText(max: number) {
  return z
    .string()
    .max(max, { error: `q is too long (${max} characters at most)`, abort: true })
    .refine(isStorableText, {
      error: "q contains a character that cannot be searched for (a NUL character or an unpaired surrogate)",
    });
}

/** The admin lists' `limit` (1-100, default 50) and `offset`. */
export const limit = wholeNumber("limit", 1, MAX_PAGE_SIZE).default(ADMIN_PAGE_SIZE);
export const offset = wholeNumber("offset", 0, MAX_OFFSET).default(0);
/** An admin screen's 1-based page. */
export const page = wholeNumber("page", 1, MAX_ADMIN_PAGE).default(1);

export interface PageQuery {
  limit: number;
  offset: number;
}

export type QueryResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Reads the schema's keys from the query string (absent: undefined); the first problem is the message. */
export function parseQuery<S extends z.ZodObject>(schema: S, url: URL): QueryResult<z.output<S>> {
  const input = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, url.searchParams.get(key) ?? undefined]),
  );
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]!.message };
}

/** A screen's page as the limit and offset its list reads. */
export const screenPage = (page: number): PageQuery & { page: number } => ({
  page,
  limit: ADMIN_PAGE_SIZE,
  offset: (page - 1) * ADMIN_PAGE_SIZE,
});

/** The public API's paging: `limit` 1-100 (default 100), `offset` 0 or more (default 0). */
const publicPageQuery = z.object({
  limit: wholeNumber("limit", 1, MAX_PAGE_SIZE).default(MAX_PAGE_SIZE),
  offset: z.string().regex(DIGITS, { error: "offset must be a whole number, 0 or more" }).transform(Number).default(0),
});

/** GET /api/posts and the page cache's key: the page, or a 400 answer. */
export function parsePageParams(url: URL): PageQuery | Response {
  const parsed = parseQuery(publicPageQuery, url);
  return parsed.ok ? parsed.value : jsonError(400, parsed.message);
}

/**
 * A list's two query strings from its filters: the API's (`limit`, `offset`
 * and the filters) and its admin screen's (`page` and the same filters, read
 * as the screen's limit and offset).
 */
export function pagedList<F extends z.ZodRawShape>(filters: F) {
  const list = z.object({ limit, offset, ...filters });
  const screen = z.object({ page, ...filters });
  type Filters = z.output<z.ZodObject<F>>;
  return {
    list: (url: URL) => parseQuery(list, url) as QueryResult<PageQuery & Filters>,
    screen(url: URL): QueryResult<PageQuery & Filters & { page: number }> {
      const parsed = parseQuery(screen, url) as QueryResult<Filters & { page: number }>;
      if (!parsed.ok) return parsed;
      const { page: screenNumber, ...rest } = parsed.value;
      return { ok: true, value: { ...(rest as Filters), ...screenPage(screenNumber) } };
    },
  };
}
