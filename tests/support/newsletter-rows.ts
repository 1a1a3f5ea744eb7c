import { randomUUID } from "node:crypto";
import { daysAgo } from "./days";

/**
 * A subscribers row as stored (migration 032): signed up `days` ago, then
 * confirmed or unsubscribed a day later as its status says.
 */
export function subscriberRow(
  email: string,
  status: "pending" | "confirmed" | "unsubscribed",
  { consent = "form", days = 3 }: { consent?: "form" | "import"; days?: number } = {},
) {
  return {
    id: randomUUID(),
    email,
    status,
    consent,
    created_at: daysAgo(days),
    confirm_sent_at: consent === "form" ? daysAgo(days) : null,
    confirmed_at: status === "pending" ? null : daysAgo(days - 1),
    unsubscribed_at: status === "unsubscribed" ? daysAgo(days - 1.5) : null,
  };
}

/** A newsletter_mailings row for `postId`, under way or done. */
export function mailingRow(
  postId: string,
  {
    status,
    recipients,
    sent,
    failed,
  }: { status: "sending" | "done"; recipients: number; sent: number; failed: number },
) {
  return {
    id: randomUUID(),
    post_id: postId,
    status,
    recipients,
    sent,
    failed,
    created_at: daysAgo(status === "done" ? 2 : 0),
    finished_at: status === "done" ? daysAgo(2) : null,
  };
}
