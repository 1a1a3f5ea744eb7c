import { countOf } from "~/lib/admin-lists";
import { CSV_IMPORT_LIMITS, REDIRECT_LIMITS } from "~/lib/redirects";

/**
 * The texts of the Redirects and Not found screens (issue 31, ADR 054).
 * The screens take every word they show from here.
 */

export const redirectsText = {
  title: "Redirects",
  intro:
    "Old addresses and where they lead now. The site adds one itself when a post's slug or a category's name changes; add your own for pages of an earlier site. Visitors and search engines following an old link land on the new page.",
  addHeading: "Add a redirect",
  fromLabel: "From (a path on this site)",
  fromHint: `Such as /old-page, at most ${REDIRECT_LIMITS.from} characters.`,
  toLabel: "To (a path on this site or an https:// address)",
  toHint: `Such as /blog/new-post or https://example.com/page, at most ${REDIRECT_LIMITS.to} characters.`,
  statusLabel: "Kind",
  statuses: { 301: "Permanent (301)", 302: "Temporary (302)" } as Record<number, string>,
  add: "Add redirect",
  adding: "Adding...",
  added: (from: string) => `Redirect from ${from} added.`,
  updated: (from: string) => `Redirect from ${from} changed.`,
  deleted: (from: string) => `Redirect from ${from} deleted.`,
  gone: "That redirect was already deleted.",
  searchLabel: "Search from or to",
  search: "Search",
  listName: "Redirects",
  exportCsv: "Export CSV",
  importHeading: "Import from CSV",
  importIntro: `Moving from another platform? Upload a CSV file of lines "from,to" or "from,to,status" (301 or 302; a first line "from,to,status" is skipped). At most ${CSV_IMPORT_LIMITS.lines.toLocaleString("en-US")} lines and ${CSV_IMPORT_LIMITS.bytes / 1_000_000} MB. Nothing is imported unless every line is right; a redirect from an address that already has one is replaced.`,
  fileLabel: "CSV file",
  importButton: "Import",
  importing: "Importing...",
  imported: (n: number) => `Imported ${countOf(n, "redirect")}.`,
  importRefused: "Nothing was imported. Fix these lines and upload the file again:",
  noFile: "Choose a CSV file to import.",
  line: (line: number, message: string) => `Line ${line.toLocaleString("en-US")}: ${message}`,
  loading: "Loading redirects...",
  none: "No redirects yet.",
  noMatch: "No redirects match.",
  count: (total: number, page: number, pages: number) =>
    `${countOf(total, "redirect")}${pages > 1 ? `; page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""}.`,
  automatic: "Added by the site",
  importedMark: "Imported from the old site",
  change: (from: string) => `Change the redirect from ${from}`,
  changeSummary: "Change",
  saveChange: "Save changes",
  remove: "Delete",
  removeLabel: (from: string) => `Delete the redirect from ${from}`,
  removing: "Deleting...",
  confirmRemove: "Delete this redirect? Links to its old address will answer 404 again.",
  pagerLabel: "Pages of redirects",
  leadsTo: "leads to",
};

export const notFoundText = {
  title: "Not found",
  intro:
    "Addresses visitors and search engines asked for that do not exist, most asked for first. Redirect the ones that had a page, dismiss the rest. Probes for other platforms' files (such as /wp-login.php or /.env) are not listed.",
  loading: "Loading addresses...",
  none: "No address has answered “not found” yet.",
  count: (total: number, page: number, pages: number) =>
    `${countOf(total, "address", "addresses")}${pages > 1 ? `; page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""}.`,
  listName: "Addresses not found",
  hits: (n: number) => countOf(n, "time"),
  asked: "Asked for",
  lastSeen: "Last",
  referrer: "Last from",
  noReferrer: "no referring site",
  redirect: "Redirect this",
  redirectLabel: (path: string) => `Redirect ${path}`,
  dismiss: "Dismiss",
  dismissLabel: (path: string) => `Dismiss ${path}`,
  dismissing: "Dismissing...",
  dismissed: (path: string) => `${path} dismissed. It is listed again if it is asked for again.`,
  pagerLabel: "Pages of addresses not found",
};
