import { freeSlots, parseSlotsQuery, readAvailability } from "~/server/booking/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/booking.slots";

/**
 * GET /api/booking/slots?from=YYYY-MM-DD&to=YYYY-MM-DD (dates in the
 * owner's zone, at most 62 days; ADR 071): `{timeZone, slots: [{start,
 * end}]}`, ISO instants in UTC, free slots only. Never cached: a booking
 * takes a slot at once.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const availability = await readAvailability(db);
  const now = new Date();
  const query = parseSlotsQuery(new URL(request.url).searchParams, availability.timeZone, now);
  if (!query.ok) return jsonError(400, query.message);
  const slots = await freeSlots(db, availability, { from: query.from, to: query.to }, now);
  return Response.json(
    { timeZone: availability.timeZone, enabled: availability.enabled, slots },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export function action() {
  return methodNotAllowed(["GET"]);
}
