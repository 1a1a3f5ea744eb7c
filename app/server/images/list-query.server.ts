import { z } from "zod";
import {
  limit,
  offset,
  page,
  parseQuery,
  screenPage,
  type PageQuery,
  type QueryResult,
} from "../platform/paging.server";

/** The image library's query strings (ADR 036): the platform's paging plus `unused`. */

const imageListQuery = z.object({
  limit,
  offset,
  unused: z.enum(["0", "1"], { error: "unused must be 0 or 1" }).default("0"),
});
const imageScreenQuery = z.object({ page });

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
  const parsed = parseQuery(imageScreenQuery, url);
  return parsed.ok ? { ok: true, value: screenPage(parsed.value.page) } : parsed;
}
