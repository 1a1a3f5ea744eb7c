import { z } from "zod";
import { MAX_STORED_KEY_LENGTH, type StoredBackupJson } from "~/lib/backup";
import type { Connection } from "../db/db.server";
import { BODY_LIMITS, jsonError, readJsonBody } from "../platform/http.server";
import { getLogger } from "../platform/logger.server";
import { limit, offset, parseQuery, type QueryResult } from "../platform/paging.server";
import { checkedLease, type Restorer } from "./restore.server";
import type { RestoreLease } from "./restore-lease.server";
import type { BackupStorage } from "./storage.server";

/**
 * The stored (off-site) backups as the admin sees them (ADR 078): listed for
 * the Settings screen and the API, and one fetched into a restore's lease.
 * Off-site storage is ADR 076's (`backupStorage(config)`, which the routes
 * pass in); when it is off, both answer 404 saying so.
 */

const NOT_CONFIGURED =
  "Off-site storage is not configured: backups are stored only when BACKUP_STORAGE_URL is set (docs/configuration.md)";
const UNREACHABLE = "The off-site storage could not be reached: try again in a moment";

function configured(storage: BackupStorage | undefined): BackupStorage {
  if (!storage) throw jsonError(404, NOT_CONFIGURED);
  return storage;
}

/** The storage's failure as an answer: never its message, which may name the bucket's host. */
function unreachable(error: unknown): Response {
  getLogger().warn({ err: error }, "off-site storage failed");
  return jsonError(502, UNREACHABLE);
}

const listQuery = z.object({ limit, offset });

/** GET /api/admin/backups's `limit` and `offset`, or why not. */
export function parseStoredBackupsQuery(url: URL): QueryResult<{ limit: number; offset: number }> {
  return parseQuery(listQuery, url);
}

/** GET /api/admin/backups: a page of the stored backups, newest first, and how many there are. */
export async function listStoredBackups(
  storage: BackupStorage | undefined,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ items: StoredBackupJson[]; total: number }> {
  let all;
  try {
    all = await configured(storage).list();
  } catch (error) {
    throw unreachable(error);
  }
  const items = all.slice(offset, offset + limit).map((backup) => ({
    key: backup.key,
    size: backup.size,
    lastModified: backup.lastModified.toISOString(),
  }));
  return { items, total: all.length };
}

/**
 * A restore of a stored backup, JSON `{key, password}`: the key checked,
 * then the password and the lease (checkedLease), then the object written
 * into the lease's file. Throws a JSON Response: 400 (no key, not one of this
 * site's backups), 403/429 (the password), 404 (no storage, no such object),
 * 409 (a restore is running), 502 (the storage failed).
 */
export async function receiveStoredRestore(
  connection: Connection,
  who: Restorer,
  storage: BackupStorage | undefined,
): Promise<{ lease: RestoreLease; key: string }> {
  const body = await readJsonBody(who.request, BODY_LIMITS.form);
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const key = fields.key;
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_STORED_KEY_LENGTH)
    throw jsonError(400, `Name the stored backup as the JSON field key (at most ${MAX_STORED_KEY_LENGTH} characters)`);
  const from = configured(storage);
  const lease = await checkedLease(connection, who, fields.password);
  try {
    await from.download(key, lease.file);
    return { lease, key };
  } catch (error) {
    await lease.end();
    if (error instanceof Error && error.message === "not one of this site's backups")
      throw jsonError(400, "That key is not one of this site's stored backups");
    if (error instanceof Error && error.name === "NoSuchKey") throw jsonError(404, "No stored backup has that key");
    throw unreachable(error);
  }
}
