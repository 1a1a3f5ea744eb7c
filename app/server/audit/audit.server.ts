import { randomBytes } from "node:crypto";
import { AUDIT_LIMITS, type AuditAction, type AuditEntry } from "~/lib/audit";
import type { Db } from "../db/db.server";
import { getDb } from "../db/index.server";
import { administratorEmail, normaliseEmail } from "../identity/index.server";
import { clientNetwork } from "../platform/client-network.server";
import { getLogger } from "../platform/logger.server";
import { defineJob, defineSchedule } from "../jobs/index.server";

/**
 * The audit log (ADR 038): who did what, when and from where.
 *
 * Recording is best effort: `recordAudit` never throws. The action it
 * describes has already happened (the post is saved, the session made), so
 * a failed write must not turn it into an error answer, and a failed
 * sign-in answers the same whether or not its entry could be written. An
 * entry that cannot be written is logged whole at error level instead, so
 * the process log holds what the table missed.
 *
 * Nothing in it identifies a visitor: the client's address is kept as its
 * network (platform/client-network.server.ts: 203.0.113.0/24,
 * 2001:db8:1::/48), and a failed sign-in keeps the e-mail it tried only when
 * that is an administrator's (someone guessing an account is what the owner
 * needs to see); a stranger's typed address is not kept, not even in the
 * process log.
 */

interface AuditRecord {
  action: AuditAction;
  /** The signed-in administrator who acted. */
  admin?: { id: string; email: string };
  /** A failed sign-in: the e-mail it tried. Kept only when it is an administrator's (as stored), else null. */
  attemptedEmail?: string;
  /** What was acted on: a post's slug, an administrator's e-mail. */
  target?: string | null;
  /** The request, for its user agent. */
  request?: Request;
  /** The client's address as the app derives it (TRUST_PROXY, server/app.ts): its network is kept. */
  clientAddress?: string;
}

/** Cut to `max` code units, without control characters, NUL or half a surrogate pair. */
export function bounded(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return clean ? clean.slice(0, max).toWellFormed() : null;
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUID version 7: the time in milliseconds, then a counter, then random
 * bits. Ids of one process sort in the order they were made, even within one
 * millisecond, so the log's order (time, then id) is the order of events.
 */
export function timeOrderedId(now = Date.now()): { id: string; ms: number } {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const random = randomBytes(8).toString("hex");
  const time = lastMs.toString(16).padStart(12, "0");
  const variant = ((parseInt(random[0]!, 16) & 0x3) | 0x8).toString(16);
  const id = `${time.slice(0, 8)}-${time.slice(8)}-7${sequence.toString(16).padStart(3, "0")}-${variant}${random.slice(1, 4)}-${random.slice(4, 16)}`;
  return { id, ms: lastMs };
}

export async function recordAudit(record: AuditRecord, db: Db = getDb()): Promise<void> {
  const { id, ms } = timeOrderedId();
  const row = {
    id,
    created_at: new Date(ms).toISOString(),
    action: record.action,
    actor_id: record.admin?.id ?? null,
    actor_email: bounded(record.admin?.email, AUDIT_LIMITS.email),
    target: bounded(record.target, AUDIT_LIMITS.target),
    client_address: clientNetwork(record.clientAddress),
    user_agent: bounded(record.request?.headers.get("User-Agent"), AUDIT_LIMITS.userAgent),
  };
  try {
    const attempted = record.admin ? null : bounded(record.attemptedEmail, AUDIT_LIMITS.email);
    if (attempted !== null) row.actor_email = await administratorEmail(db, attempted);
    await db.insertInto("audit_log").values(row).execute();
  } catch (error) {
    getLogger().error({ err: error, audit: row }, "could not write an audit log entry");
  }
}

/**
 * Records a sign-in's outcome: a success (and the administrator's last
 * sign-in time), or a checked failure. Throttled attempts (429) were refused
 * before any check and are not recorded: a flood of them would flood the log.
 * A failure keeps the e-mail only when it is an administrator's (recordAudit).
 */
export async function recordSignIn(
  result:
    { ok: true; user: { id: string; email: string } } | { ok: false; status: number; twoFactorRequired?: boolean },
  attemptedEmail: string,
  request: Request,
  clientAddress: string,
  { codeGiven = false }: { codeGiven?: boolean } = {},
  db: Db = getDb(),
): Promise<void> {
  if (result.ok) {
    await recordAudit({ action: "sign-in", admin: result.user, request, clientAddress }, db);
    await noteSignIn(result.user.id, db);
  } else if (result.status === 401 && result.twoFactorRequired) {
    // The password was right. Asked for the code: nothing happened yet. A code refused: worth a line (ADR 037).
    if (codeGiven) await recordAudit({ action: "sign-in-code-failed", attemptedEmail, request, clientAddress }, db);
  } else if (result.status === 401) {
    await recordAudit({ action: "sign-in-failed", attemptedEmail, request, clientAddress }, db);
  }
}

/** Failed sign-ins: no administrator acted, and the e-mail is one that was tried. */
const FAILED_SIGN_INS: ReadonlySet<string> = new Set<AuditAction>(["sign-in-failed", "sign-in-code-failed"]);

/**
 * An audit_log row from elsewhere (a restored backup, a copied database,
 * perhaps from a version that kept full addresses) as this version keeps it:
 * the client's network, and a failed sign-in's e-mail only when it is one of
 * `adminEmails`' (the site's administrators' stored e-mails).
 */
export function auditRowAsKept<Row extends Record<string, unknown>>(row: Row, adminEmails: readonly string[]): Row {
  const kept: Record<string, unknown> = { ...row };
  if ("client_address" in row) {
    kept.client_address = clientNetwork(typeof row.client_address === "string" ? row.client_address : null);
  }
  const email = row.actor_email;
  if (
    typeof email === "string" &&
    (row.actor_id === null || row.actor_id === undefined) &&
    FAILED_SIGN_INS.has(String(row.action))
  ) {
    kept.actor_email = adminEmails.find((admin) => normaliseEmail(admin) === normaliseEmail(email)) ?? null;
  }
  return kept as Row;
}

/** The administrator's last sign-in time, for the Administrators screen; best effort as the log. */
async function noteSignIn(adminId: string, db: Db = getDb()): Promise<void> {
  try {
    await db
      .updateTable("admin_users")
      .set({ last_sign_in_at: new Date().toISOString() })
      .where("id", "=", adminId)
      .execute();
  } catch (error) {
    getLogger().warn({ err: error, adminId }, "could not note the last sign-in");
  }
}

export interface AuditQuery {
  limit: number;
  offset: number;
  action?: AuditAction;
  /** An administrator's id. */
  admin?: string;
}

/** One page of the log, newest first, and the number of entries matching. */
export async function listAuditEntries(
  db: Db,
  { limit, offset, action, admin }: AuditQuery,
): Promise<{ entries: AuditEntry[]; total: number }> {
  let base = db.selectFrom("audit_log");
  if (action) base = base.where("action", "=", action);
  if (admin) base = base.where("actor_id", "=", admin);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    entries: rows.map((row) => ({
      id: row.id,
      at: row.created_at,
      action: row.action,
      adminId: row.actor_id,
      email: row.actor_email,
      target: row.target,
      clientAddress: row.client_address,
      userAgent: row.user_agent,
    })),
  };
}

/** Deletes entries older than `days`; answers how many. Idempotent, so any number of processes may run it. */
async function pruneAuditLog(db: Db, days: number, now = Date.now()): Promise<number> {
  const before = new Date(now - days * 86_400_000).toISOString();
  const result = await db.deleteFrom("audit_log").where("created_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How often the log is pruned: once per period across all processes (a schedule, ADR 067). */
const AUDIT_PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;

/** Deletes the entries older than `days`, and says so in the log when there were any. */
async function pruneAndLog(db: Db, days: number): Promise<void> {
  const removed = await pruneAuditLog(db, days);
  if (removed > 0) getLogger().info({ removed, days }, "old audit log entries pruned");
}

/**
 * Prunes once as a process starts, before it takes requests: a lowered
 * AUDIT_RETENTION_DAYS holds from the restart that sets it, not from the next
 * six-hourly run. A failure is logged; the schedule tries again.
 */
export async function pruneAuditLogAtStart(db: Db, days: number): Promise<void> {
  try {
    await pruneAndLog(db, days);
  } catch (error) {
    getLogger().warn({ err: error }, "could not prune the audit log");
  }
}

/** Registers the audit log's pruning as a schedule (called from the audit domain's init at start). */
export function scheduleAuditPruning(days: number): void {
  const prune = defineJob<Record<string, never>>("audit.prune", (_payload, { db }) => pruneAndLog(db, days), {
    maxAttempts: 3,
  });
  defineSchedule("audit.prune", AUDIT_PRUNE_EVERY_MS, prune);
}
