import { Temporal } from "temporal-polyfill";
import { type Availability, BOOKING_LIMITS, isDate } from "~/lib/booking";

/**
 * Free slots (ADR 071): computed from the owner's weekly hours in the owner's
 * time zone with Temporal, so a range is the wall-clock hours the owner set
 * on every date, across daylight-saving changes: on the spring-forward day
 * a range's start that does not exist moves forward as a clock would, its
 * end stops where the clock skips, and a call is always exactly
 * `slotMinutes` long in real time. Slots are instants (UTC);
 * the visitor's browser shows them in the visitor's zone.
 */

export interface Slot {
  /** ISO instants, UTC, to the second ("2026-03-09T16:00:00.000Z"). */
  start: string;
  end: string;
}

export interface Busy {
  start: string;
  end: string;
}

const MINUTE_MS = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The instant a wall-clock time on `date` is in `timeZone` (a gap's time moves forward, as clocks do). */
function instantOf(date: Temporal.PlainDate, time: string, timeZone: string): number {
  return date.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}

/**
 * The instant a range that ends at `time` on `date` ends: that time in
 * `timeZone`, or, for a time the clocks skip, the moment they skip it. Moved
 * forward as a start is, an end in the gap would offer calls after the
 * owner's hours, even the next range's slot a second time.
 */
function endInstantOf(date: Temporal.PlainDate, time: string, timeZone: string): number {
  const wanted = date.toPlainDateTime(Temporal.PlainTime.from(time));
  const zoned = wanted.toZonedDateTime(timeZone);
  if (Temporal.PlainDateTime.compare(zoned.toPlainDateTime(), wanted) === 0) return zoned.epochMilliseconds;
  // From just after: a time the clock skips from its first minute lands on the transition itself,
  // and "previous" looks strictly before the instant it is asked from.
  return (zoned.add({ nanoseconds: 1 }).getTimeZoneTransition("previous") ?? zoned).epochMilliseconds;
}

/** Today's date in `timeZone`. */
export function todayIn(timeZone: string, now: Date): string {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}

/** `date` plus `days`, YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** The instant `date` starts in `timeZone`. */
export function startOfDay(date: string, timeZone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;
}

/**
 * Every slot the owner's hours give on the dates `from` to `to` (inclusive,
 * in the owner's zone) that starts at least `minNoticeHours` after `now` and
 * at most `horizonDays` after it, is not on a day off, and does not come
 * within `bufferMinutes` of a busy time. Ordered by start. With `busy` empty
 * this is what the owner offers; a slot taken since is the booking's 409.
 */
export function computeSlots(
  availability: Availability,
  range: { from: string; to: string },
  now: Date,
  busy: readonly Busy[] = [],
): Slot[] {
  if (!availability.enabled || availability.weekly.length === 0) return [];
  const { timeZone, slotMinutes, bufferMinutes, minNoticeHours, horizonDays } = availability;
  const earliest = now.getTime() + minNoticeHours * 60 * MINUTE_MS;
  const latest = now.getTime() + horizonDays * 24 * 60 * MINUTE_MS;
  const slotMs = slotMinutes * MINUTE_MS;
  const stepMs = (slotMinutes + bufferMinutes) * MINUTE_MS;
  const bufferMs = bufferMinutes * MINUTE_MS;
  const taken = busy.map((b) => ({ start: Date.parse(b.start), end: Date.parse(b.end) }));
  const daysOff = new Set(availability.daysOff);
  const slots: Slot[] = [];
  const last = Temporal.PlainDate.from(range.to);
  for (let date = Temporal.PlainDate.from(range.from); Temporal.PlainDate.compare(date, last) <= 0;) {
    if (!daysOff.has(date.toString())) {
      for (const hours of availability.weekly) {
        if (hours.day !== date.dayOfWeek) continue;
        const end = endInstantOf(date, hours.end, timeZone);
        for (let start = instantOf(date, hours.start, timeZone); start + slotMs <= end; start += stepMs) {
          if (start < earliest || start > latest) continue;
          const slotEnd = start + slotMs;
          if (taken.some((t) => start < t.end + bufferMs && t.start < slotEnd + bufferMs)) continue;
          slots.push({ start: iso(start), end: iso(slotEnd) });
        }
      }
    }
    date = date.add({ days: 1 });
  }
  return slots.sort((a, b) => a.start.localeCompare(b.start));
}

/** The slot that starts at `start` (an ISO instant) among those the owner offers now, ignoring bookings; or undefined. */
export function offeredSlot(availability: Availability, start: string, now: Date): Slot | undefined {
  const startMs = Date.parse(start);
  if (Number.isNaN(startMs)) return undefined;
  const date = Temporal.Instant.fromEpochMilliseconds(startMs)
    .toZonedDateTimeISO(availability.timeZone)
    .toPlainDate()
    .toString();
  return computeSlots(availability, { from: date, to: date }, now).find((slot) => Date.parse(slot.start) === startMs);
}

export type SlotsQuery = { ok: true; from: string; to: string } | { ok: false; message: string };

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`, dates in the owner's zone, at most 62 days; from defaults to today, to to 13 days on. */
export function parseSlotsQuery(params: URLSearchParams, timeZone: string, now: Date): SlotsQuery {
  const rawFrom = params.get("from");
  const rawTo = params.get("to");
  if (rawFrom !== null && !isDate(rawFrom)) return { ok: false, message: "from must be a date, YYYY-MM-DD" };
  if (rawTo !== null && !isDate(rawTo)) return { ok: false, message: "to must be a date, YYYY-MM-DD" };
  const from = rawFrom ?? todayIn(timeZone, now);
  const to = rawTo ?? addDays(from, 13);
  const days = Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: "days" }).days;
  if (days < 0) return { ok: false, message: "to must not be before from" };
  if (days + 1 > BOOKING_LIMITS.slotsQueryDays)
    return { ok: false, message: `from and to may span at most ${BOOKING_LIMITS.slotsQueryDays} days` };
  return { ok: true, from, to };
}
