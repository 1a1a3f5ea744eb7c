/**
 * How a booked call's time reads (ADR 071), in the e-mails and on the booking
 * pages, where the browser formats it again in its own zone. Apart from
 * app/lib/booking.ts so that the pages' islands load this alone.
 */

/** A call's start as people read it, in `timeZone`: "Monday, March 9, 2026 at 9:00 AM PDT". */
export function formatCallTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}
