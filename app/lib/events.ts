/**
 * The site's events (ADR 067, 068): what the jobs domain emits, and what a
 * webhook can be sent. Shared by the server and the Webhooks screen, which
 * offers them.
 */
export const EVENT_NAMES = [
  "post.published",
  "contact.received",
  "booking.created",
  "booking.cancelled",
  "subscriber.confirmed",
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const isEventName = (value: string): value is EventName => (EVENT_NAMES as readonly string[]).includes(value);
