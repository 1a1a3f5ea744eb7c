import type { Availability } from "~/lib/booking";
import { recordAudit } from "../audit/index.server";
import type { Db } from "../db/db.server";
import { saveAvailability } from "./availability.server";
import { type Booking, cancelBooking } from "./bookings.server";

/**
 * The owner's changes to booking, each with its audit entry (ADR 071): one
 * place for the Booking screen's actions and the admin API alike, so the
 * two cannot record them differently.
 */

/** Who changed it: the signed-in administrator, their request and address (the audit keeps the network). */
export interface ChangedBy {
  admin: { id: string; email: string };
  request: Request;
  clientAddress: string;
}

/** Saves checked hours and records `booking-changed` (target: on or off). */
export async function saveAvailabilityBy(db: Db, value: Availability, by: ChangedBy): Promise<Availability> {
  const saved = await saveAvailability(db, value);
  await recordAudit({ action: "booking-changed", target: saved.enabled ? "on" : "off", ...by });
  return saved;
}

/**
 * Cancels a call for the owner and records `booking-cancelled` (target: the
 * booking's id). A call already cancelled changes nothing, and is not
 * recorded again, even by two requests at once.
 */
export async function cancelBookingBy(db: Db, booking: Booking, by: ChangedBy): Promise<Booking> {
  const { booking: cancelled, changed } = await cancelBooking(db, booking);
  if (changed) await recordAudit({ action: "booking-cancelled", target: booking.id, ...by });
  return cancelled;
}
