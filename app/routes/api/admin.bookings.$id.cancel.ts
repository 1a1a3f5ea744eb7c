import { cancelBookingBy, findBooking } from "~/server/booking/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.bookings.$id.cancel";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/admin/bookings/{id}/cancel: the owner cancels a call (ADR 071),
 * as the visitor's link would: the slot is free again, both get a CANCEL,
 * `booking.cancelled` fires. 200 `{id, start, end, status}`; 404. Cancelling
 * a cancelled call changes nothing.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const db = context.get(dbContext);
  const booking = await findBooking(db, params.id);
  if (!booking) return jsonError(404, "Booking not found");
  const cancelled = await cancelBookingBy(db, booking, {
    admin: signedInAdmin(context),
    request,
    clientAddress: context.get(clientAddressContext),
  });
  const { id, start, end, status } = cancelled;
  return Response.json({ id, start, end, status }, { headers: { "Cache-Control": "no-store" } });
}
