import { countOf } from "~/lib/admin-lists";

/**
 * The owner's Subscribers screen (Admin > Subscribers, issue 46, ADR 072):
 * the newsletter's subscribers, their import and export, and the posts
 * e-mailed to them. The screen takes every word it shows from here.
 */

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed";
export type StatusFilter = "all" | SubscriberStatus;

const n = (value: number) => value.toLocaleString("en-US");
const MB = 1_000_000;

export const subscribersAdminText = {
  title: "Subscribers",
  intro:
    "The people who get your posts by e-mail. Visitors sign up with the form at the end of each article, on the blog and in the footer, and are on the list once they confirm by e-mail.",
  summary: (counts: Record<SubscriberStatus, number>) =>
    `${n(counts.confirmed)} confirmed, ${n(counts.pending)} pending, ${n(counts.unsubscribed)} unsubscribed`,

  // The list: filter, search, export, table.
  listName: "Subscribers",
  searchLabel: "Search by address",
  statusLabel: "Status",
  statusFilters: {
    all: "All",
    confirmed: "Confirmed",
    pending: "Pending",
    unsubscribed: "Unsubscribed",
  } satisfies Record<StatusFilter, string>,
  search: "Search",
  exportCsv: "Export CSV",
  loading: "Loading subscribers...",
  none: "No subscribers yet. The sign-up form is at the end of each article, on the blog and in the footer.",
  noMatch: "No subscribers match.",
  showAll: "Show all subscribers",
  count: (total: number, page: number, pages: number) =>
    `${countOf(total, "subscriber")}${pages > 1 ? `; page ${n(page)} of ${n(pages)}` : ""}.`,
  caption: "Subscribers, newest first",
  columns: {
    email: "Address",
    status: "Status",
    consent: "How it came",
    subscribed: "Subscribed",
    changed: "Confirmed or unsubscribed",
    actions: "Actions",
  },
  statuses: {
    confirmed: "Confirmed",
    pending: "Pending",
    unsubscribed: "Unsubscribed",
  } satisfies Record<SubscriberStatus, string>,
  consents: { form: "Form", import: "Import" } satisfies Record<"form" | "import", string>,
  /** The last column: the date of the status's own event. */
  changedOn: {
    confirmed: (date: string) => `Confirmed ${date}`,
    unsubscribed: (date: string) => `Unsubscribed ${date}`,
  },
  notYet: "Not yet",
  pagerLabel: "Pages of subscribers",

  // Remove, asked first.
  remove: "Remove",
  removeQuestion: (email: string) =>
    `Remove ${email} from the list? The address is forgotten at once and gets no more posts. They can sign up again.`,
  removeConfirm: "Yes, remove",
  removing: "Removing...",
  removed: (email: string) => `${email} was removed from the list.`,
  removedGone: "That subscriber was already removed.",

  // Import.
  importHeading: "Import from CSV",
  importIntro: (limits: { lines: number; bytes: number }) =>
    `Bring in a list from another service: a CSV file with an address a line, in the first column or in the one headed "email". Addresses already on the list stay as they are. At most ${n(limits.lines)} lines and ${limits.bytes / MB} MB.`,
  fileLabel: "CSV file",
  consentLegend: "Did these people ask for your newsletter?",
  consentYes: "These people asked to get the newsletter (they are added as confirmed)",
  consentNo: "Send each a confirmation e-mail first (they are added as pending)",
  consentHint:
    "Only choose the first if each person agreed to get your posts by e-mail, for example on another newsletter service. Otherwise they confirm by e-mail, as if they had used the form.",
  importButton: "Import",
  importing: "Importing...",
  imported: (r: { added: number; confirmed: number; pending: number; skipped: number }) =>
    `Added ${n(r.added)} (${n(r.confirmed)} confirmed, ${n(r.pending)} pending); ${n(r.skipped)} already on the list.`,
  problemsHeading: "These lines were skipped:",
  line: (line: number, message: string) => `Line ${n(line)}: ${message}`,
  noFile: "Choose a CSV file to import.",
  noConsent: "Choose whether these people asked for the newsletter.",
  tooLarge: (bytes: number) => `The file is too large (${bytes / MB} MB at most).`,
  notText: "The file is not a CSV text file. Save it as CSV and try again.",

  // Posts e-mailed.
  mailingsHeading: "Posts e-mailed",
  mailingsIntro: "The newest 20 posts sent to the subscribers, with how many each went to.",
  mailingsNone:
    'No post has been e-mailed yet. Tick "E-mail this post to subscribers" in a post to send it when it is published.',
  mailingStarted: (date: string) => `E-mailed ${date}`,
  recipients: "Recipients",
  sent: "Sent",
  failed: "Failed",
  sending: "Sending...",
  done: "Done",
};
