import { MAX_RESTORE_FILE_BYTES, type RestoreResult } from "~/lib/backup";
import { formatBytes } from "~/lib/images";

/**
 * The texts of Settings > Restore from a backup (ADR 078): replacing the
 * whole site with a backup file. The section takes every word it shows from
 * here.
 */

const number = (n: number) => n.toLocaleString("en-US");
/** "Nov 29, 2026, 2:49 PM UTC": the same text on the server and in the browser. */
const when = (iso: string) =>
  `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

export const restoreText = {
  heading: "Restore from a backup",
  intro:
    "Puts the site back as it was when a backup was made. Everything on the site now is replaced by what the backup holds: posts, pages, images, these settings, administrators and their passwords, messages, subscribers, bookings, redirects, webhooks and the audit log. Everybody is signed out, you too.",
  needsScript:
    "Restoring from this screen needs JavaScript. The person who runs the server can restore with npm run admin -- restore FILE --replace.",
  sourceLegend: "Restore from",
  sourceFile: "A backup file from this computer",
  sourceStored: "A stored backup (off-site storage)",
  fileLabel: "Backup file",
  fileHint: `The .tar file that Download backup gave you, at most ${formatBytes(MAX_RESTORE_FILE_BYTES)}. A .tar.gz must be decompressed first.`,
  storedLabel: "Stored backup",
  storedLoading: "Loading the stored backups…",
  storedNone: "No backups are stored yet.",
  storedFailed: "The stored backups could not be listed. Try again in a moment.",
  storedOption: (lastModified: string, size: number) => `${when(lastModified)} (${formatBytes(size)})`,
  chooseFile: "Choose a backup file first.",
  tooLarge: `This file is larger than ${formatBytes(MAX_RESTORE_FILE_BYTES)}: the person who runs the server can restore it with npm run admin -- restore FILE --replace.`,
  chooseStored: "Choose a stored backup first.",
  open: "Restore…",
  dialogTitle: "Replace the whole site?",
  dialogDescription: (what: string) =>
    `Everything on the site is replaced by ${what}: posts, pages, images, settings, administrators and their passwords, messages, subscribers, bookings, redirects, webhooks and the audit log. What was added or changed since the backup was made is lost. Everybody is signed out, you too. The backup is checked whole first: a damaged file changes nothing.`,
  dialogWhatFile: (name: string) => `the backup file ${name}`,
  dialogWhatStored: (label: string) => `the stored backup of ${label}`,
  passwordLabel: "Your password, to confirm",
  confirm: "Replace everything",
  uploading: (percent: number) => `Uploading the backup: ${percent}%`,
  uploadLabel: "Upload of the backup",
  restoring: "Checking the backup and restoring it. A site with many images takes a few minutes: keep this page open.",
  busyButton: "Restoring…",
  refused: "Nothing was changed.",
  failed: "The backup could not be restored, and nothing was changed. Try again in a moment.",
  lost: "The connection to the site was lost. The site may still be restoring: wait a minute, then sign in again to see which content it has.",
  signedOut: "You have been signed out. Sign in again, then restore.",
  doneHeading: "The site was restored",
  doneMade: (result: RestoreResult) => `From the backup made ${when(result.createdAt)}.`,
  doneCounts: (rows: Record<string, number>) =>
    [
      plural(rows.posts ?? 0, "post", "posts"),
      plural(rows.images ?? 0, "image", "images"),
      plural(rows.contact_messages ?? 0, "message", "messages"),
      plural(rows.subscribers ?? 0, "subscriber", "subscribers"),
      plural(rows.admin_users ?? 0, "administrator", "administrators"),
    ].join(", ") + ".",
  doneNotices: "What the restore changed from the backup:",
  doneSignedOut:
    "You were signed out, as everybody was. Sign in again with an administrator's e-mail and password from the backup.",
  signIn: "Sign in",
};
