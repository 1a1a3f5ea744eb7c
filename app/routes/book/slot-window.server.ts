import { type Availability, isDate } from "~/lib/booking";
import { addDays, freeSlots, todayIn } from "~/server/booking/index.server";
import type { Db } from "~/server/db/db.server";

/**
 * The dates the booking pages show at once (ADR 071): WINDOW_DAYS from
 * `?from=` (a date in the owner's zone; today when absent, unreadable or
 * past, and no later than the last bookable day), with the free slots in
 * them and the `from` of the windows before and after, while those hold
 * bookable days. The pages link to them, so paging works without
 * JavaScript.
 */
const WINDOW_DAYS = 14;

export interface SlotWindow {
  from: string;
  slots: Array<{ start: string; end: string }>;
  earlier: string | null;
  later: string | null;
}

export async function slotWindow(
  db: Db,
  availability: Availability,
  fromParam: string | null,
  now: Date,
): Promise<SlotWindow> {
  const { timeZone } = availability;
  const today = todayIn(timeZone, now);
  const lastDay = addDays(today, availability.horizonDays);
  // YYYY-MM-DD dates compare as strings.
  let from = fromParam !== null && isDate(fromParam) && fromParam > today ? fromParam : today;
  if (from > lastDay) from = lastDay;
  const to = addDays(from, WINDOW_DAYS - 1);
  const slots = await freeSlots(db, availability, { from, to }, now);
  const before = addDays(from, -WINDOW_DAYS);
  const after = addDays(from, WINDOW_DAYS);
  return {
    from,
    slots,
    earlier: from > today ? (before < today ? today : before) : null,
    later: after <= lastDay ? after : null,
  };
}
