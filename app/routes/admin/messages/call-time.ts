/**
 * A booked call's time on a lead (ADR 071), as the inbox's card and the lead
 * screen say it: formatted by their loaders in the owner's time zone, the
 * one the Booking screen sets, so the page reads the same before and after
 * hydration whatever the browser's zone.
 */
import { formatCallTime } from "~/lib/call-time";

export const withCallTime = <M extends { call: { start: string } | null }>(message: M, timeZone: string) => ({
  ...message,
  callTime: message.call ? formatCallTime(message.call.start, timeZone) : null,
});
