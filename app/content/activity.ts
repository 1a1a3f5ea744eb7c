import { countOf } from "~/lib/admin-lists";

/** Admin > Activity (ADR 067): the background work that failed, and its retry. */
export const activityText = {
  title: "Activity",
  intro:
    "Work the site does on its own time: notice e-mails, replies, events, scheduled posts, pruning. Each is retried a few times when it fails; what still failed is listed here with its error. Retry it once the cause is fixed (a mail server back, an address set in Settings).",
  loading: "Loading failed work...",
  none: "Nothing has failed.",
  count: (total: number, page: number, pages: number) =>
    `${countOf(total, "failed job")}${pages > 1 ? `; page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""}.`,
  listName: "Failed jobs",
  failedAt: "Failed",
  attempts: (n: number) => `after ${countOf(n, "attempt")}`,
  noError: "No error was recorded.",
  retry: "Retry",
  retryLabel: (kind: string, at: string) => `Retry ${kind} that failed ${at}`,
  retrying: "Retrying...",
  retried: (kind: string) => `${kind} queued again. It runs within a few seconds; if it fails again it is listed here.`,
  gone: "That job is no longer failed: it was retried already, or pruned.",
  pagerLabel: "Pages of failed jobs",
};

/** What each kind of job does, in the owner's words; an unknown kind shows its name. */
const JOB_KIND_LABELS: Record<string, string> = {
  "contact.notice": "Notice e-mail of a message",
  "contact.reply": "Reply to a message",
  "contact.acknowledgement": "Acknowledgement e-mail to a sender",
  "booking.mail": "E-mail about a booked call",
  "booking.prune": "Pruning cancelled bookings",
  "event.dispatch": "Event delivery",
  "post.publish-due": "Scheduled post's publication",
  "audit.prune": "Pruning the audit log",
  "analytics.prune": "Pruning the analytics",
  "jobs.prune": "Pruning finished jobs",
  "webhook.deliver": "Webhook delivery",
};
export const jobKindLabel = (kind: string) => JOB_KIND_LABELS[kind] ?? kind;
