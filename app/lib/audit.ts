/**
 * The audit log's actions (ADR 038), shared by the server, which records and
 * filters by them, and the Audit screen, which names them. A new action is
 * one entry here and one label below; recording it is one call of
 * `recordAudit` (app/server/audit/audit.server.ts).
 */
export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-failed",
  "sign-in-code-failed",
  "sign-out",
  "post-created",
  "post-updated",
  "post-published",
  "post-unpublished",
  "post-deleted",
  "settings-changed",
  "backup-downloaded",
  "backup-run",
  "backup-restored",
  "admin-invited",
  "admin-joined",
  "admin-removed",
  "invite-revoked",
  "two-factor-enabled",
  "two-factor-disabled",
  "password-changed",
  "sessions-signed-out",
  "preview-link-created",
  "preview-link-revoked",
  "redirect-created",
  "redirect-updated",
  "redirect-deleted",
  "redirects-imported",
  "not-found-dismissed",
  "page-published",
  "page-share-link-created",
  "webhook-added",
  "webhook-deleted",
  "job-retried",
  "lead-updated",
  "reply-sent",
  "saved-reply-changed",
  "acknowledgement-changed",
  "booking-changed",
  "booking-cancelled",
  "subscriber-removed",
  "subscribers-imported",
  "posts-import-started",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "sign-in": "Signed in",
  "sign-in-failed": "Sign-in failed",
  "sign-in-code-failed": "Sign-in code refused",
  "sign-out": "Signed out",
  "post-created": "Post created",
  "post-updated": "Post updated",
  "post-published": "Post published",
  "post-unpublished": "Post unpublished",
  "post-deleted": "Post deleted",
  "settings-changed": "Settings changed",
  "backup-downloaded": "Backup downloaded",
  "backup-run": "Off-site backup started",
  "backup-restored": "Backup restored",
  "admin-invited": "Administrator invited",
  "admin-joined": "Administrator joined",
  "admin-removed": "Administrator removed",
  "invite-revoked": "Invitation revoked",
  "two-factor-enabled": "Two-factor sign-in turned on",
  "two-factor-disabled": "Two-factor sign-in turned off",
  "password-changed": "Password changed",
  "sessions-signed-out": "Sessions signed out",
  "preview-link-created": "Share link created",
  "preview-link-revoked": "Share link revoked",
  "redirect-created": "Redirect added",
  "redirect-updated": "Redirect changed",
  "redirect-deleted": "Redirect deleted",
  "redirects-imported": "Redirects imported",
  "not-found-dismissed": "Not-found path dismissed",
  "page-published": "Page published",
  "page-share-link-created": "Page share link created",
  "webhook-added": "Webhook added",
  "webhook-deleted": "Webhook deleted",
  "job-retried": "Failed job retried",
  "lead-updated": "Lead updated",
  "reply-sent": "Reply written",
  "saved-reply-changed": "Saved reply changed",
  "acknowledgement-changed": "Acknowledgement changed",
  "booking-changed": "Booking hours changed",
  "booking-cancelled": "Call cancelled",
  "subscriber-removed": "Subscriber removed",
  "subscribers-imported": "Subscribers imported",
  "posts-import-started": "Import of posts started",
};

export const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

/**
 * Bounds of the stored text (migration 014): longer values are cut, never
 * refused. The client's network is short by its form (at most 47 characters
 * of a 64-character column).
 */
export const AUDIT_LIMITS = { email: 320, target: 300, userAgent: 200 } as const;

/** One entry as the API and the Audit screen show it. */
export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  /** The administrator's id, or null (a failed sign-in). */
  adminId: string | null;
  /**
   * The administrator's e-mail at the time. A failed sign-in: the
   * administrator's e-mail it tried, or null when it tried one that is no
   * administrator's (a stranger's typed address is not kept).
   */
  email: string | null;
  target: string | null;
  /** The client's network (203.0.113.0/24, 2001:db8:1::/48), never its full address; null when not known. */
  clientAddress: string | null;
  userAgent: string | null;
}

/**
 * Who an entry names, as the Audit screen says it: the administrator's
 * e-mail, or for a failed sign-in the administrator's e-mail that was tried,
 * or that it tried one that is no administrator's (which is not kept).
 */
export function auditActorText(entry: Pick<AuditEntry, "action" | "email">): string {
  if (entry.action === "sign-in-failed") {
    return entry.email ? `${entry.email} (attempted)` : "an unknown account (e-mail not kept)";
  }
  return entry.email ?? "unknown";
}

/** Where an entry came from: the client's network, never its full address (ADR 038). */
export const auditNetworkText = (network: string | null): string =>
  network ? `from ${network}` : "from an unknown network";

const BROWSERS: Array<[token: string, name: string]> = [
  ["Edg/", "Edge"],
  ["OPR/", "Opera"],
  ["Firefox/", "Firefox"],
  ["Chrome/", "Chrome"],
  ["Safari/", "Safari"],
  ["curl/", "curl"],
];
const SYSTEMS: Array<[token: string, name: string]> = [
  ["Android", "Android"],
  ["iPhone", "iOS"],
  ["iPad", "iPadOS"],
  ["Windows", "Windows"],
  ["Mac OS X", "macOS"],
  ["CrOS", "ChromeOS"],
  ["Linux", "Linux"],
];

/** "Firefox on Linux" from a user agent, or the stored text as it is when it names no known browser. */
export function userAgentSummary(userAgent: string | null): string {
  if (!userAgent) return "-";
  const browser = BROWSERS.find(([token]) => userAgent.includes(token))?.[1];
  if (!browser) return userAgent;
  const system = SYSTEMS.find(([token]) => userAgent.includes(token))?.[1];
  return system ? `${browser} on ${system}` : browser;
}
