import { bookingErrors } from "~/content/booking";
import { parseBookingRequest } from "~/lib/booking";
import { leadOriginOf, recordConversion } from "../analytics/index.server";
import type { Connection, Db } from "../db/db.server";
import { throttleKeyMaterial } from "../identity/index.server";
import { addressKey, createThrottle, type Throttle } from "../platform/throttle.server";
import { readAvailability } from "./availability.server";
import { type Booking, BookingError, createBooking } from "./bookings.server";
import { offeredSlot } from "./slots.server";

/**
 * Booking's policy for a visitor's request, in order (ADR 071), for
 * POST /api/booking and the /book form alike: a full address is refused
 * before its body is read; the request is checked; the address is charged
 * before the booking is tried, so parallel requests cannot pass the limit,
 * and given back only to a visitor who lost a race for the slot (a script
 * that keeps asking for a taken slot or a full mailbox is counted); a time
 * not offered is refused before the charge; a booking counts as a conversion
 * in the analytics. The routes only turn the outcome into HTTP or a page.
 */

/** Per client address: this many booking attempts an hour (a lost race is given back). */
const BOOKING_THROTTLE = { points: 30, durationSeconds: 60 * 60 };

let throttle: Throttle | undefined;
export function initBookingThrottle(connection: Connection): void {
  throttle = createThrottle(connection, { name: "booking", ...BOOKING_THROTTLE, keyMaterial: throttleKeyMaterial });
}

export type BookOutcome =
  | { kind: "booked"; booking: Booking }
  | { kind: "throttled"; retryAfterMs: number }
  | { kind: "refused"; status: 400 | 404 | 409; field: string; message: string };

export async function bookCall(
  db: Db,
  request: Request,
  clientAddress: string,
  readBody: () => Promise<unknown>,
): Promise<BookOutcome> {
  if (!throttle) throw new Error("booking: init() was not called at start (server/startup.ts)");
  const client = addressKey(clientAddress);
  const waitMs = await throttle.retryAfterMs(client);
  if (waitMs > 0) return { kind: "throttled", retryAfterMs: waitMs };
  const parsed = parseBookingRequest(await readBody());
  if (!parsed.ok) return { kind: "refused", status: 400, field: parsed.field, message: parsed.message };
  // A time not offered is refused before the charge and without the booking lock.
  const availability = await readAvailability(db);
  if (!availability.enabled) return { kind: "refused", status: 400, field: "start", message: bookingErrors.closed };
  if (!offeredSlot(availability, parsed.value.start, new Date()))
    return { kind: "refused", status: 400, field: "start", message: bookingErrors.notOffered };
  const reservation = await throttle.reserve(client);
  if (!reservation.ok) return { kind: "throttled", retryAfterMs: reservation.retryAfterMs };
  try {
    const origin = await leadOriginOf(db, request, clientAddress);
    const booking = await createBooking(db, availability, parsed.value, origin);
    recordConversion(request, clientAddress);
    return { kind: "booked", booking };
  } catch (error) {
    // Given back only to a visitor who lost a race for the slot; any other refusal counts.
    if (!(error instanceof BookingError) || error.raceLost) await throttle.refund(client).catch(() => {});
    if (error instanceof BookingError)
      return { kind: "refused", status: error.status, field: error.field, message: error.message };
    throw error;
  }
}
