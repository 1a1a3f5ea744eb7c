import { listUpcomingBookings, parseBookingListQuery } from "~/server/booking/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.bookings";

/**
 * GET /api/admin/bookings: the calls still to come, soonest first, paged
 * like the other admin lists: `{id, start, end, name, email, phone, messageId}`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseBookingListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { bookings, total } = await listUpcomingBookings(context.get(dbContext), query.value);
  return Response.json(bookings, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
