import { LEAD_LIMITS, LEAD_STATUSES, isLeadStatus, parseFollowUp, type LeadStatus } from "~/lib/leads";
import type { Db } from "../db/db.server";
import { findMessage } from "./contact.server";
import type { ContactMessage } from "./message-row.server";

/**
 * A lead's state (ADR 070): its status, the owner's note and follow-up day,
 * changed through PATCH /api/admin/messages/{id} and the message's screen;
 * the inbox's counts per status; the analytics' leads per source.
 */

export interface LeadChange {
  status?: LeadStatus;
  note?: string | null;
  followUpAt?: string | null;
  read?: boolean;
}

export type LeadChangeParse = { ok: true; value: LeadChange } | { ok: false; message: string };

const CHANGE_MESSAGE = "Send a JSON object with any of status, note, followUpAt and read";

/**
 * A PATCH body: any of `{status, note, followUpAt, read}`, each checked; at
 * least one. Other fields are left alone, so a client may send back the
 * whole message it read with one field changed.
 */
export function parseLeadChange(body: unknown): LeadChangeParse {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: false, message: CHANGE_MESSAGE };
  const given = body as Record<string, unknown>;
  const value: LeadChange = {};
  if (given.status !== undefined) {
    if (!isLeadStatus(given.status)) return { ok: false, message: `status must be one of ${LEAD_STATUSES.join(", ")}` };
    value.status = given.status;
  }
  if (given.note !== undefined) {
    if (given.note !== null && typeof given.note !== "string")
      return { ok: false, message: "note must be text or null" };
    if (typeof given.note === "string" && given.note.length > LEAD_LIMITS.note)
      return { ok: false, message: `note is too long (${LEAD_LIMITS.note} characters at most)` };
    if (typeof given.note === "string" && given.note.includes("\0"))
      return { ok: false, message: "note contains a NUL character" };
    value.note = typeof given.note === "string" && given.note.trim() ? given.note.trim() : null;
  }
  if (given.followUpAt !== undefined) {
    const day = parseFollowUp(given.followUpAt);
    if (day === undefined) return { ok: false, message: "followUpAt must be a date (YYYY-MM-DD), an ISO time or null" };
    value.followUpAt = day;
  }
  if (given.read !== undefined) {
    if (typeof given.read !== "boolean") return { ok: false, message: "read must be true or false" };
    value.read = given.read;
  }
  if (Object.keys(value).length === 0) return { ok: false, message: CHANGE_MESSAGE };
  return { ok: true, value };
}

/**
 * Applies a change; answers the message before and after it (the audit log
 * records what moved), or undefined when there is no such message.
 */
export async function changeLead(
  db: Db,
  id: string,
  change: LeadChange,
): Promise<{ before: ContactMessage; after: ContactMessage } | undefined> {
  const before = await findMessage(db, id);
  if (!before) return undefined;
  const now = new Date().toISOString();
  await db
    .updateTable("contact_messages")
    .set((eb) => ({
      ...(change.status !== undefined && { status: change.status }),
      ...(change.note !== undefined && { note: change.note }),
      ...(change.followUpAt !== undefined && { follow_up_at: change.followUpAt }),
      ...(change.read !== undefined && { read_at: change.read ? eb.fn.coalesce("read_at", eb.val(now)) : null }),
    }))
    .where("id", "=", id)
    .execute();
  const after = await findMessage(db, id);
  return after ? { before, after } : undefined;
}

/** What the audit log says of a change: "status new → won; note; follow-up 2026-12-01". */
export function describeLeadChange(before: ContactMessage, after: ContactMessage): string | null {
  const parts: string[] = [];
  if (before.status !== after.status) parts.push(`status ${before.status} → ${after.status}`);
  if (before.note !== after.note) parts.push(after.note ? "note changed" : "note cleared");
  if (before.followUpAt !== after.followUpAt) parts.push(`follow-up ${after.followUpAt ?? "cleared"}`);
  return parts.length > 0 ? parts.join("; ") : null;
}

/** Messages per status, every status named (0 when none). */
export async function countLeadsByStatus(db: Db): Promise<Record<LeadStatus, number>> {
  const rows = await db
    .selectFrom("contact_messages")
    .select(["status", (eb) => eb.fn.countAll<string | number>().as("count")])
    .groupBy("status")
    .execute();
  const counts = Object.fromEntries(LEAD_STATUSES.map((status) => [status, 0])) as Record<LeadStatus, number>;
  for (const row of rows) if (isLeadStatus(row.status)) counts[row.status] = Number(row.count);
  return counts;
}

/** A status of a lead the analytics count: every one but spam. */
type CountedStatus = Exclude<LeadStatus, "spam">;
const COUNTED_STATUSES: readonly CountedStatus[] = ["new", "contacted", "qualified", "won", "lost"];

/** One source's leads: how many in all and how many are at each status (spam aside). */
export type LeadsOfSource = { source: string; total: number } & Record<CountedStatus, number>;

/** Sources a range's leads list, most won first: the rest are summed under "(other)". */
const LEAD_SOURCES = 20;

const noLeads = (source: string): LeadsOfSource => ({
  source,
  total: 0,
  new: 0,
  contacted: 0,
  qualified: 0,
  won: 0,
  lost: 0,
});

/**
 * Leads received in [from, to] (UTC days), spam aside, per source and
 * status: where the clients who were won came from (the analytics
 * dashboard and its API, `leads`). A message without a source (received
 * before sources were kept) counts under "(unknown)".
 */
export async function leadsBySource(db: Db, from: string, to: string): Promise<LeadsOfSource[]> {
  const rows = await db
    .selectFrom("contact_messages")
    .select(["source", "status", (eb) => eb.fn.countAll<string | number>().as("count")])
    .where("created_at", ">=", `${from}T00:00:00.000Z`)
    .where("created_at", "<=", `${to}T23:59:59.999Z`)
    .where("status", "!=", "spam")
    .groupBy(["source", "status"])
    .execute();
  const bySource = new Map<string, LeadsOfSource>();
  for (const row of rows) {
    if (!isLeadStatus(row.status) || row.status === "spam") continue;
    const source = row.source ?? "(unknown)";
    const entry = bySource.get(source) ?? noLeads(source);
    bySource.set(source, entry);
    entry[row.status] += Number(row.count);
    entry.total += Number(row.count);
  }
  const sorted = [...bySource.values()].sort(
    (a, b) => b.won - a.won || b.total - a.total || (a.source < b.source ? -1 : 1),
  );
  if (sorted.length <= LEAD_SOURCES) return sorted;
  const other = noLeads("(other)");
  for (const entry of sorted.slice(LEAD_SOURCES - 1)) {
    other.total += entry.total;
    for (const status of COUNTED_STATUSES) other[status] += entry[status];
  }
  return [...sorted.slice(0, LEAD_SOURCES - 1), other];
}
