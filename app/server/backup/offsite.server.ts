import type { Readable } from "node:stream";
import tar from "tar-stream";
import { getConnection } from "../db/index.server";
import type { Db } from "../db/db.server";
import { getTotpKey } from "../identity/index.server";
import { defineJob, defineSchedule, enqueue, type JobContext } from "../jobs/index.server";
import { getMailer, noticeAddresses } from "../mail/index.server";
import { checkOutboundEndpoint } from "../outbound/index.server";
import { getConfig, type Config } from "../platform/config.server";
import { getLogger } from "../platform/logger.server";
import { readSiteSettings } from "../settings/index.server";
import { backupStorage, objectName, storageWhere } from "./storage.server";
import { writeBackup } from "./write.server";

/**
 * Off-site backups (ADR 076): every BACKUP_INTERVAL_MINUTES a backup file
 * (the one the admin downloads, ADR 034) streamed into the bucket as it is
 * written, the oldest beyond BACKUP_KEEP deleted, the attempt recorded in
 * `backup_status` for Settings and /healthz, and one e-mail to the owner per
 * failure streak.
 *
 * Once per period across processes: the jobs domain's schedule enqueues one
 * job per period, and the object is named by the period's start (when the
 * job was enqueued), so a retry, a second process or "Back up now" in the
 * same period writes the same object again rather than a second one.
 */

/** A failure's reason as stored and shown: short, one line (the SDK's messages never hold the secret). */
const MAX_REASON = 300;
/** Status's one row. */
const STATUS_ID = 1;

/** The most recent attempt, as Settings and /healthz show it. */
export interface BackupStatus {
  lastAt: string;
  result: "ok" | "failed";
  /** Bytes of the object written; null for a failure. */
  size: number | null;
  /** Why it failed; null after a success. */
  reason: string | null;
  key: string | null;
  lastOkAt: string | null;
}

/** The period `at` falls in, as its start. */
const periodStart = (at: number, everyMs: number) => new Date(Math.floor(at / everyMs) * everyMs);

const reasonOf = (error: unknown) =>
  (error instanceof Error ? `${error.name === "Error" ? "" : `${error.name}: `}${error.message}` : String(error))
    .replace(/\s+/g, " ")
    .slice(0, MAX_REASON);

async function recordOk(db: Db, key: string, size: number, at: string): Promise<void> {
  const row = {
    attempted_at: at,
    result: "ok" as const,
    reason: null,
    object_key: key,
    byte_size: size,
    last_ok_at: at,
    failing_since: null,
    failure_mailed: 0,
  };
  await db
    .insertInto("backup_status")
    .values({ id: STATUS_ID, ...row })
    .onConflict((oc) => oc.column("id").doUpdateSet(row))
    .execute();
}

async function recordFailure(db: Db, key: string, reason: string, at: string): Promise<void> {
  await db
    .insertInto("backup_status")
    .values({
      id: STATUS_ID,
      attempted_at: at,
      result: "failed",
      reason,
      object_key: key,
      byte_size: null,
      last_ok_at: null,
      failing_since: at,
      failure_mailed: 0,
    })
    .onConflict((oc) =>
      oc.column("id").doUpdateSet((eb) => ({
        attempted_at: at,
        result: "failed" as const,
        reason,
        object_key: key,
        byte_size: null,
        failing_since: eb.fn.coalesce("backup_status.failing_since", eb.val(at)),
      })),
    )
    .execute();
}

/** The last attempt, or undefined when there has been none. */
export async function readBackupStatus(db: Db): Promise<BackupStatus | undefined> {
  const row = await db.selectFrom("backup_status").selectAll().where("id", "=", STATUS_ID).executeTakeFirst();
  if (!row) return undefined;
  return {
    lastAt: row.attempted_at,
    result: row.result,
    size: row.byte_size === null ? null : Number(row.byte_size),
    reason: row.reason,
    key: row.object_key,
    lastOkAt: row.last_ok_at,
  };
}

/**
 * The failure e-mail, once per failure streak: sent when a job's last
 * attempt fails (a failure its retries got past is not worth a mail), by the
 * process whose UPDATE marks the streak mailed. A success clears the mark. A
 * mail that could not be sent clears it again, so the next failed job tries.
 */
async function mailFailureOnce(db: Db, reason: string): Promise<void> {
  const log = getLogger();
  const claimed = await db
    .updateTable("backup_status")
    .set({ failure_mailed: 1 })
    .where("id", "=", STATUS_ID)
    .where("result", "=", "failed")
    .where("failure_mailed", "=", 0)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return;
  try {
    const row = await db
      .selectFrom("backup_status")
      .select("failing_since")
      .where("id", "=", STATUS_ID)
      .executeTakeFirst();
    const since = row?.failing_since ?? new Date().toISOString();
    const mailer = getMailer();
    if (!mailer) throw new Error("SMTP_URL is not set");
    const settings = await readSiteSettings(db);
    const addresses = noticeAddresses(settings);
    if (!addresses) throw new Error("no notice address: set one in Admin > Settings");
    await mailer.send({
      ...addresses,
      subject: `Off-site backup failed: ${settings.companyName}`,
      text: [
        `The off-site backup of ${getConfig().siteUrl} has been failing since ${since}.`,
        "",
        `The last attempt's reason: ${reason}`,
        "",
        "Backups are tried again at each interval; this is the only e-mail until one succeeds and another fails.",
        "See Admin > Settings, Backup, and docs/operations.md (Off-site backups).",
      ].join("\n"),
    });
    log.info("off-site backup failure e-mailed");
  } catch (error) {
    await db.updateTable("backup_status").set({ failure_mailed: 0 }).where("id", "=", STATUS_ID).execute();
    log.error({ err: reasonOf(error) }, "the off-site backup's failure could not be e-mailed");
  }
}

/** One backup into the bucket, named by the period the job was enqueued in; then the retention. */
async function runOffsiteBackup(ctx: JobContext, config: Config): Promise<void> {
  const storage = backupStorage(config);
  if (!config.backups || !storage) return;
  const log = getLogger();
  const key = objectName(periodStart(Date.parse(ctx.enqueuedAt), config.backups.everyMs), config.backups.everyMs);
  const started = Date.now();
  try {
    const pack = tar.pack();
    const [counts, stored] = await Promise.all([
      writeBackup(getConnection(), pack, getTotpKey()?.key),
      // tar-stream's Pack is a Node Readable; its typings name an older @types/node's.
      storage.put(pack as unknown as Readable, key, ctx.signal),
    ]);
    const deleted = await storage.deleteOld(config.backups.keep);
    await recordOk(ctx.db, stored.key, stored.size, new Date().toISOString());
    log.info(
      { key: stored.key, bytes: stored.size, rows: counts.rows, deleted: deleted.length, ms: Date.now() - started },
      "off-site backup stored",
    );
  } catch (error) {
    const reason = reasonOf(error);
    const at = new Date().toISOString();
    await recordFailure(ctx.db, key, reason, at);
    const last = ctx.attempt >= ctx.maxAttempts;
    log[last ? "error" : "warn"]({ key, attempt: ctx.attempt, err: reason }, "off-site backup failed");
    if (last) await mailFailureOnce(ctx.db, reason);
    throw error;
  }
}

/**
 * `backup.offsite`: three tries (a minute, then five, apart; JOB_DELAY_SCALE
 * applies), each given an hour: a large site's upload takes minutes.
 */
const offsiteBackup = defineJob<Record<string, never>>(
  "backup.offsite",
  (_payload, ctx) => runOffsiteBackup(ctx, getConfig()),
  { maxAttempts: 3, retryDelaysMs: [60_000, 5 * 60_000], timeoutMs: 60 * 60_000 },
);

/**
 * "Back up now" (POST /api/admin/backups/run): the same job, at once. Keyed
 * by the minute, so a double click (or two administrators at once) makes
 * one; it writes this period's object, replacing the scheduled one.
 */
export async function startBackupNow(db: Db): Promise<{ created: boolean }> {
  const minute = new Date().toISOString().slice(0, 16);
  return enqueue(db, offsiteBackup, {}, { idempotencyKey: `backup.run:${minute}` });
}

/** Whether off-site backups are on (BACKUP_STORAGE_URL set), and where they go, without the secret. */
export function offsiteBackupsWhere(config: Config = getConfig()): string | undefined {
  // From the configuration alone: asked on every /healthz, it builds no client.
  return config.backups ? storageWhere(config.backups.storage) : undefined;
}

/**
 * What the backup domain registers once per process, from server/startup.ts:
 * the schedule, when BACKUP_STORAGE_URL is set. An endpoint written as an
 * address the outbound rules refuse is said at start (each run records it as
 * a failure too); a host name's addresses are checked at each connection.
 */
export function init(config: Config): void {
  if (!config.backups) return;
  defineSchedule("backup.offsite", config.backups.everyMs, offsiteBackup);
  try {
    checkOutboundEndpoint(config.backups.storage.endpoint, { allowPrivate: config.outboundAllowPrivate });
  } catch (error) {
    getLogger().error(
      { refusal: reasonOf(error) },
      "BACKUP_STORAGE_URL names an address off-site backups may not reach",
    );
  }
}
