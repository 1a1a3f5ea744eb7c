/**
 * The backup download's names, shared by the server (app/server/backup) and
 * the Settings screen, which posts its password form to it (ADR 034, 046).
 */

/** POST only: the whole site as one tar, for the signed-in administrator's current password. */
export const BACKUP_PATH = "/api/admin/backup";

/**
 * A form field the Settings screen adds: a random id of its own. When the
 * password is right the download's answer sets BACKUP_STARTED_COOKIE to it,
 * which is how the screen learns that the file is on its way (a browser
 * tells a page nothing when a frame's answer becomes a download).
 */
export const DOWNLOAD_ID_FIELD = "downloadId";
export const BACKUP_STARTED_COOKIE = "backup-started";
/**
 * Where that cookie is sent back: the admin's pages, no public one. Not just
 * /admin/settings: the admin moves between screens without loading a page,
 * and Chromium's document.cookie keeps to the path the page was loaded at.
 */
export const BACKUP_STARTED_COOKIE_PATH = "/admin";

/** What a download id may be: a UUID or the like, never anything a cookie's value could not hold. */
export const isDownloadId = (value: string): boolean => /^[\w-]{8,64}$/.test(value);

/** POST only: one off-site backup now (ADR 076), for the administrator's current password. */
export const BACKUP_RUN_PATH = "/api/admin/backups/run";

/** The 409 of BACKUP_RUN_PATH on a site without BACKUP_STORAGE_URL. */
export const BACKUPS_NOT_CONFIGURED =
  "Off-site backups are not configured: set BACKUP_STORAGE_URL (docs/configuration.md)";
