/**
 * The lead desk's rules that both the server and the admin screens use
 * (ADR 070, docs/product/contract.md#leads): a message's pipeline statuses
 * and the bounds on what the owner writes. Plain TypeScript, no zod.
 */

/** A message's place in the pipeline; a new message is `new` unless the site judged it spam. */
export const LEAD_STATUSES = ["new", "contacted", "qualified", "won", "lost", "spam"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const isLeadStatus = (value: unknown): value is LeadStatus =>
  typeof value === "string" && (LEAD_STATUSES as readonly string[]).includes(value);

/** The inbox's status filter: "all" (the default) is every message but spam, which is kept apart. */
export const LEAD_FILTERS = ["all", ...LEAD_STATUSES] as const;
export type LeadFilter = (typeof LEAD_FILTERS)[number];

/** The inbox's orders: newest first (the default), or follow-up day first, messages without one last. */
export const LEAD_SORTS = ["newest", "follow-up"] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export const LEAD_LIMITS = {
  /** Characters of the owner's private note. */
  note: 5_000,
  /** Characters of a reply, and of a saved reply's text. */
  reply: 10_000,
  /** Replies one message may have. */
  repliesPerMessage: 50,
  /** Characters of a saved reply's name. */
  savedReplyName: 100,
  /** Saved replies in all. */
  savedReplies: 50,
  /** Characters of the acknowledgement's text. */
  acknowledgement: 5_000,
  /** Characters of a client's Idempotency-Key. */
  idempotencyKey: 200,
} as const;

/** Spam messages kept: past this many the oldest go (ADR 070). */
export const SPAM_KEPT = 500;

/** A follow-up day as the API and the screen's date field spell it. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A follow-up day from `YYYY-MM-DD` or an ISO instant (its UTC day); null
 * clears it; undefined when the text is neither.
 */
export function parseFollowUp(value: unknown): string | null | undefined {
  if (value === null || value === "") return null;
  if (typeof value !== "string" || value.length > 40) return undefined;
  if (DAY.test(value)) {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : undefined;
  }
  if (!value.includes("T")) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
}

/** Whether a follow-up day is due: today or earlier, `today` being YYYY-MM-DD. */
export function followUpState(followUpAt: string | null, today: string): "overdue" | "today" | "later" | null {
  if (!followUpAt) return null;
  if (followUpAt < today) return "overdue";
  return followUpAt === today ? "today" : "later";
}
