/** The Administrators screen and API (ADR 038): shapes shared by the server and the screen. */

export const ADMIN_NAME_MAX_LENGTH = 100;
/** An invitation link is valid this long, as the setup link (ADR 003). */
export const INVITE_HOURS = 24;

export interface AdminListItem {
  id: string;
  email: string;
  /** Null for an administrator made by the setup link, ADMIN_EMAIL or the CLI. */
  name: string | null;
  addedAt: string;
  /** Null until their first sign-in after migration 014. */
  lastSignInAt: string | null;
}

export interface InviteListItem {
  id: string;
  email: string;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

export type InviteState = "valid" | "unknown" | "used" | "revoked" | "expired";

/** The link an invitee opens; the token travels in the path and is never stored. */
export const invitePath = (token: string) => `/admin/invite/${token}`;
