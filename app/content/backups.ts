import { formatBytes } from "~/lib/images";

/**
 * The texts of the off-site backup part of Admin > Settings (ADR 076): the
 * last backup's result and the "Back up now" button. The screen takes every
 * word it shows from here.
 */

/** "Nov 29, 2026, 2:49 PM UTC": the same text on the server and in the browser. */
const when = (iso: string) =>
  `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;

export const backupsText = {
  heading: "Off-site backups",
  off: "Off-site backups are off: the person who runs the server turns them on with BACKUP_STORAGE_URL (docs/deploy.md, “Off-site backups”). Until then, download a backup above and keep it somewhere else.",
  on: (where: string) =>
    `The site stores a backup in ${where} on its own, on a schedule, and keeps the newest few. Each one is the same file as the download above.`,
  none: "No off-site backup has been made yet.",
  ok: (at: string, bytes: number | null) =>
    `Last backup: ${when(at)}, ${bytes === null ? "size unknown" : formatBytes(bytes)}. It worked.`,
  failed: (at: string, reason: string | null, lastOkAt: string | null) =>
    `Last backup: ${when(at)}. It failed: ${reason ?? "no reason given"}. ${
      lastOkAt ? `The last one that worked was made ${when(lastOkAt)}.` : "None has worked yet."
    } It is tried again at the next interval; the notice address gets one e-mail per run of failures.`,
  button: "Back up now",
  dialogTitle: "Back up now",
  dialogDescription:
    "Sends the whole site to the off-site storage now, replacing the backup of this interval. It takes a minute or more for a site with many images. Your request is noted in the audit log.",
  passwordLabel: "Your password, to confirm",
  submit: "Start backup",
  checking: "Checking...",
  started: "The backup has started. Reload this page in a minute to see how it went.",
  signedOut: "You have been signed out. Sign in again, then start the backup.",
  failedToStart: "The backup could not be started. Try again in a moment.",
};
