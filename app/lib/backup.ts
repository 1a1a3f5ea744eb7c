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

/**
 * Restore from the admin (ADR 078): a backup file uploaded (multipart, the
 * password field before the file field) or a stored backup named by its key
 * (JSON), with the administrator's password. Everything is replaced.
 */
export const RESTORE_PATH = "/api/admin/backups/restore";
/** GET: the stored (off-site) backups, newest first, paged. */
export const STORED_BACKUPS_PATH = "/api/admin/backups";
export const RESTORE_FILE_FIELD = "file";
export const RESTORE_PASSWORD_FIELD = "password";
/**
 * The largest backup file an upload may be: 2 GiB. A backup is the site's
 * images and rows uncompressed; a site past this is restored from the
 * command line, which has no limit.
 */
export const MAX_RESTORE_FILE_BYTES = 2 * 1024 * 1024 * 1024;
/** The longest key of a stored backup a restore accepts (S3 allows 1,024 bytes). */
export const MAX_STORED_KEY_LENGTH = 1024;

/** What a finished restore answers: the backup it loaded, its rows per table, and what it changed from the file. */
export interface RestoreResult {
  /** When and on which site the backup was made (its manifest). */
  createdAt: string;
  source: string;
  rows: Record<string, number>;
  notices: string[];
}

/** A stored backup (an object of off-site storage) as GET /api/admin/backups lists it, in JSON. */
export interface StoredBackupJson {
  key: string;
  size: number;
  lastModified: string;
}
