import type { LeadStatus } from "~/lib/leads";

/** The lead desk's words: status names, the acknowledgement's default text, a reply's subject and quote (ADR 070). */

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "New",
  contacted: "Contacted",
  qualified: "Qualified",
  won: "Won",
  lost: "Lost",
  spam: "Spam",
};

/** What the owner reads for each reason the site judged a message spam. */
export const SPAM_REASON_LABELS: Record<string, string> = {
  honeypot: "a field hidden from people was filled in",
  "links-only": "the message was links and little else",
};

/** The acknowledgement's text when the owner has not written one; `{name}` and `{company}` are filled in. */
export const DEFAULT_ACKNOWLEDGEMENT = [
  "Hello {name},",
  "",
  "Thank you for getting in touch with {company}. We have received your message and will reply within one business day.",
  "",
  "{company}",
].join("\n");

export const leadMail = {
  /** The subject of the acknowledgement and of every reply, so they thread together. */
  subject: (company: string) => `Your message to ${company}`,
  /** The line above the quoted message in a reply. */
  quoteHeader: (name: string, date: string) => `On ${date}, ${name} wrote:`,
};

/** The sender's name in the Saved replies screen's preview of the acknowledgement. */
export const ACKNOWLEDGEMENT_PREVIEW_NAME = "Alex";

/** The words of the inbox's lead parts, the lead screen and the Saved replies screen (ADR 070). */
export const leadsText = {
  statusNav: "Lead status",
  allStatuses: "All",
  statusLink: (label: string, count: number) => `${label} (${count.toLocaleString("en-US")})`,
  sortLabel: "Order",
  sorts: { newest: "Newest first", "follow-up": "Follow-up date" } as const,
  open: "Open",
  openLabel: (name: string) => `Open the lead from ${name}`,
  statusBadge: (label: string) => `Status: ${label}`,
  followUpOverdue: (day: string) => `Follow-up overdue since ${day}`,
  followUpToday: "Follow-up due today",
  followUpLater: (day: string) => `Follow-up on ${day}`,
  cameFrom: (source: string | null, page: string | null) =>
    `Source: ${source === "direct" ? "direct (no referring site)" : (source ?? "unknown")}${page ? ` · sent from ${page}` : ""}`,
  campaign: (campaign: string) => `campaign ${campaign}`,
  spamBecause: (reason: string) => `Kept as spam: ${reason}.`,
  unknownSpamReason: "marked as spam",
  // The lead screen.
  back: "Back to the inbox",
  received: "Received",
  leadHeading: "The lead",
  statusLabel: "Status",
  followUpLabel: "Follow-up date",
  followUpHint: "Leave empty for no follow-up.",
  clearFollowUp: "Clear the date",
  noteLabel: "Note (only you see it)",
  save: "Save",
  saving: "Saving...",
  saved: "Saved.",
  nothingChanged: "Nothing changed.",
  notSpam: "Not spam",
  notSpamDone: "Moved to New.",
  spamHeading: "Spam",
  repliesHeading: "Replies",
  noReplies: "No replies yet.",
  replyStatus: { pending: "Waiting to be sent", sent: "Sent", failed: "Failed" } as const,
  replyFailed: (error: string | null) => `Failed: ${error ?? "unknown error"}`,
  replyAttempts: (n: number) => (n === 1 ? " (tried once)" : ` (tried ${n.toLocaleString("en-US")} times)`),
  replySentAt: (when: string) => `Sent ${when}`,
  startFrom: "Start from a saved reply",
  noSavedReply: "(none)",
  useSaved: "Use this reply",
  replyLabel: "Your reply",
  replyHint: "Sent from the contact e-mail to the sender, with their message quoted below.",
  sendReply: "Send reply",
  sending: "Sending...",
  replyQueued: "Reply saved; it is sent in a moment.",
  manageSaved: "Manage saved replies",
  // The Saved replies screen.
  savedTitle: "Saved replies",
  savedIntro:
    "Answers you write once and start replies from, and the acknowledgement each new sender can get. A reply starts from a saved one on the lead's page.",
  addHeading: "Add a saved reply",
  listHeading: "Your saved replies",
  none: "No saved replies yet.",
  count: (n: number) => `${n.toLocaleString("en-US")} saved ${n === 1 ? "reply" : "replies"}.`,
  nameLabel: "Name",
  nameHint: "Only you see it, in the list of saved replies.",
  bodyLabel: "Text",
  add: "Add saved reply",
  added: (name: string) => `Saved reply “${name}” added.`,
  change: "Change",
  changeLabel: (name: string) => `Change the saved reply “${name}”`,
  saveChange: "Save changes",
  updated: (name: string) => `Saved reply “${name}” changed.`,
  remove: "Delete",
  removeLabel: (name: string) => `Delete the saved reply “${name}”`,
  confirmRemove: "Delete this saved reply?",
  deleted: "Saved reply deleted.",
  gone: "That saved reply was already deleted.",
  ackHeading: "Acknowledgement",
  ackEnabled: "Send each new sender an acknowledgement",
  ackHint:
    "An e-mail saying their message arrived, sent at once from the contact e-mail; at most one per address per hour, never for spam.",
  ackTextLabel: "Its text",
  ackTextHint:
    "{name} becomes the sender's name and {company} the company's. Leave it empty to send the default text, shown here.",
  ackPreviewSummary: `What a sender named ${ACKNOWLEDGEMENT_PREVIEW_NAME} receives now`,
  ackSave: "Save acknowledgement",
  ackSaved: (enabled: boolean) => (enabled ? "Acknowledgements are on." : "Acknowledgements are off."),
};
