import { countOf } from "~/lib/admin-lists";
import { type ImportReport, type ImportStatus, MAX_IMPORT_FILE_BYTES } from "~/lib/import";

/**
 * The texts of Admin > Import (ADR 074): bringing posts over from a
 * WordPress or Ghost export. The screen takes every word it shows from here.
 */

const megabytes = `${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB`;
const number = (n: number) => n.toLocaleString("en-US");

/** "Nov 29, 2026, 2:49 PM UTC": the same text on the server and in the browser. */
const startedAt = (iso: string) =>
  `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;

export const importText = {
  title: "Import",
  intro:
    "Bring your posts over from WordPress or Ghost. Their old addresses keep working: each leads to the post's new page. Importing the same file again adds nothing.",
  formHeading: "Upload an export",
  wordpressHow: "WordPress: Tools > Export > All content, then Download Export File (a .xml file).",
  ghostHow: "Ghost: Settings > Advanced > Export, then Export content (a .json file).",
  fileLabel: "Export file",
  fileHint: `A .xml file from WordPress or a .json file from Ghost, at most ${megabytes}.`,
  tooLarge: `The file is too large (${megabytes} at most).`,
  siteUrlLabel: "Old site's address (optional)",
  siteUrlHint:
    "Such as https://old-blog.example. Needed for a Ghost export, so its images can be fetched; a WordPress file says it itself.",
  submit: "Import",
  uploading: "Uploading…",
  refused: "Nothing was imported.",
  failedUpload: "The file could not be imported. Try again in a moment.",
  reportHeading: (report: ImportReport) => `Import of ${report.fileName}`,
  started: (report: ImportReport) => `Started ${startedAt(report.createdAt)}`,
  kinds: { wordpress: "WordPress export", ghost: "Ghost export" } satisfies Record<
    NonNullable<ImportReport["kind"]>,
    string
  >,
  notFound: (newestShown: boolean) =>
    newestShown ? "That import was not found. The newest one is shown." : "That import was not found.",
  progressLabel: "Posts imported",
  reading: "Reading the file…",
  progress: (processed: number, total: number) => `Imported ${number(processed)} of ${countOf(total, "post")}.`,
  running: "The import carries on if you leave this page; come back to see how far it got.",
  refresh: "Refresh",
  done: (report: ImportReport) =>
    `Done: ${countOf(report.created, "post")} created, ${number(report.skipped)} skipped.`,
  failed: "The import stopped.",
  numbersName: "What the import did",
  numbers: {
    created: "Posts created",
    skipped: "Posts skipped",
    redirects: "Redirects made",
    fetched: "Images fetched",
    imagesFailed: "Images not fetched",
  },
  problemsHeading: "Check these",
  moreProblems: (n: number) => `and ${number(n)} more`,
  checkListed: "Open the posts to check them, those listed above first.",
  checkPosts: "Open the posts to check them.",
  redirectsMarked: "The old addresses are on the Redirects screen, marked “imported”.",
  postsLink: "Posts",
  redirectsLink: "Redirects",
  earlierHeading: "Earlier imports",
  none: "No imports yet.",
  earlierCaption: "Imports, newest first",
  columns: { date: "Started", file: "File", status: "Status", created: "Created", skipped: "Skipped" },
  statuses: { running: "Running", done: "Done", failed: "Failed" } satisfies Record<ImportStatus, string>,
  startedOn: startedAt,
  showing: "shown above",
};
