import { z } from "zod";
import { limit, offset, page, parseQuery, type QueryResult, screenPage } from "../platform/paging.server";

/** GET /api/admin/bookings: `limit` and `offset`; the Booking screen: `page` (ADR 026). */
const bookingListQuery = z.object({ limit, offset });
const bookingScreenQuery = z.object({ page });

export function parseBookingListQuery(url: URL): QueryResult<{ limit: number; offset: number }> {
  return parseQuery(bookingListQuery, url);
}

export function parseBookingScreenQuery(url: URL): QueryResult<{ page: number; limit: number; offset: number }> {
  const parsed = parseQuery(bookingScreenQuery, url);
  return parsed.ok ? { ok: true, value: screenPage(parsed.value.page) } : parsed;
}
