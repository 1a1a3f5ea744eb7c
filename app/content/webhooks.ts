import { countOf } from "~/lib/admin-lists";
import type { EventName } from "~/lib/events";
import type { DeliveryStatus } from "~/lib/webhooks";

/**
 * The texts of the Webhooks screen (issue 43, ADR 068). The screen takes
 * every word it shows from here.
 */
export const webhooksText = {
  title: "Webhooks",
  intro:
    "Send your other tools (a CRM, a chat, an automation service) a signed message when something happens on the site. Each message is signed with the webhook's secret, and retried for several hours if the receiver does not answer 2xx.",
  addHeading: "Add a webhook",
  urlLabel: "URL",
  urlHint: "An https:// address of the receiving service, such as https://hooks.example.com/ojai.",
  eventsLegend: "Send these events",
  events: {
    "post.published": "A post is published (also a scheduled post, at its time)",
    "contact.received": "A message arrives through the contact form",
    "booking.created": "A booking is made",
    "booking.cancelled": "A booking is cancelled",
    "subscriber.confirmed": "A subscriber confirms their address",
  } satisfies Record<EventName, string>,
  noEvents: "Choose at least one event.",
  passwordLabel: "Your password",
  add: "Add webhook",
  adding: "Adding...",
  secretHeading: "The webhook's signing secret",
  secretIntro:
    "Copy it into the receiving service now: it is not shown again. The service uses it to check that messages come from this site (Standard Webhooks signatures).",
  secretLabel: (url: string) => `Signing secret for ${url}`,
  copy: "Copy secret",
  copied: "Copied",
  listHeading: "Your webhooks",
  none: "No webhooks yet. Add one above to start sending events.",
  count: (n: number) => `${countOf(n, "webhook")}.`,
  eventsOf: "Events",
  added: (date: string) => `Added ${date}`,
  sendTest: "Send test",
  sendTestLabel: (url: string) => `Send a test to ${url}`,
  sending: "Sending...",
  testSent: (url: string, status: DeliveryStatus, code: number | null) =>
    status === "delivered"
      ? `The test reached ${url}: it answered ${code}.`
      : `The test did not reach ${url}: ${code === null ? "no answer" : `it answered ${code}`}. See the log below.`,
  remove: "Delete",
  removeLabel: (url: string) => `Delete the webhook to ${url}`,
  removing: "Deleting...",
  confirmTitle: "Delete a webhook",
  confirmRemove: (url: string) =>
    `Stop sending events to ${url}? Its delivery log goes too; messages still being retried are not sent.`,
  deleted: (url: string) => `The webhook to ${url} was deleted.`,
  gone: "That webhook was already deleted.",
  logHeading: (url: string) => `Delivery log of ${url}`,
  logEmpty: "Nothing sent yet.",
  logCount: (shown: number, total: number) =>
    total > shown ? `The newest ${shown} of ${countOf(total, "delivery", "deliveries")}.` : "",
  columns: { code: "Answer" },
  statuses: { pending: "Retrying", delivered: "Delivered", failed: "Failed" } satisfies Record<DeliveryStatus, string>,
  attempts: (n: number) => countOf(n, "attempt"),
  noAnswer: "none",
  redeliver: "Redeliver",
  redeliverLabel: (event: string, time: string) => `Redeliver ${event} of ${time}`,
  redelivered: (status: DeliveryStatus, code: number | null) =>
    status === "delivered"
      ? `Sent again: the receiver answered ${code}.`
      : `Sent again, not delivered: ${code === null ? "no answer" : `the receiver answered ${code}`}.`,
};
