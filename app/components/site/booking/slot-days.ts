import { useSyncExternalStore } from "react";

/**
 * The booking pages' free slots as people read them (ADR 071): grouped by
 * day and labelled in one time zone. The server renders them in the owner's
 * zone; once the page's script runs, the browser's own zone replaces it.
 * Both use Intl, so the same function serves both sides.
 */

interface SlotTime {
  /** The slot's start, an ISO instant: the value the form sends. */
  start: string;
  /** Its time of day in the zone: "9:00 AM". */
  label: string;
}

export interface SlotDay {
  /** YYYY-MM-DD in the zone. */
  date: string;
  /** "Monday, December 7". */
  label: string;
  times: SlotTime[];
}

/** `slots` (ordered by start) grouped by their day in `timeZone`. */
export function slotDays(slots: ReadonlyArray<{ start: string }>, timeZone: string): SlotDay[] {
  const dateOf = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const dayLabel = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "long", month: "long", day: "numeric" });
  const timeLabel = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit" });
  const days: SlotDay[] = [];
  for (const slot of slots) {
    const instant = new Date(slot.start);
    const date = dateOf.format(instant);
    let day = days.at(-1);
    if (day?.date !== date) {
      day = { date, label: dayLabel.format(instant), times: [] };
      days.push(day);
    }
    day.times.push({ start: slot.start, label: timeLabel.format(instant) });
  }
  return days;
}

const never = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const noZone = () => null;

/**
 * The browser's time zone once the island runs in a browser; null in the
 * server's render and while hydrating, so the first render matches the
 * server's HTML, and React renders again with the zone straight after.
 */
export function useBrowserZone(): string | null {
  return useSyncExternalStore(never, browserZone, noZone);
}
