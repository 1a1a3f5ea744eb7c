import { randomUUID } from "node:crypto";
import { MIN_PASSWORD_LENGTH } from "~/lib/account";
import { isValidEmail } from "~/lib/email";
import {
  ADMIN_NAME_MAX_LENGTH,
  INVITE_HOURS,
  type AdminListItem,
  type InviteListItem,
  type InviteState,
} from "~/lib/administrators";
import { createSession, type AdminUser } from "./sessions.server";
import { isUniqueViolation, type Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import { isStorableText } from "../platform/http.server";
import { hashPassword } from "./passwords.server";
import { hashSecretToken, newSecretToken } from "../platform/secret-tokens.server";

/**
 * More administrators (ADR 038): one-time invitations, accepting them, and
 * removing an administrator without ever removing the last one.
 */

const sha256 = hashSecretToken;
const normaliseEmail = (email: string) => email.trim().toLowerCase();

export class AdminsError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export async function listAdministrators(db: Db): Promise<AdminListItem[]> {
  const rows = await db
    .selectFrom("admin_users")
    .select(["id", "email", "name", "created_at", "last_sign_in_at"])
    .orderBy("created_at")
    .orderBy("email")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    addedAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  }));
}

/** Invitations neither accepted nor revoked nor expired, newest first. */
export async function listPendingInvites(db: Db): Promise<InviteListItem[]> {
  const rows = await db
    .selectFrom("admin_invites")
    .select(["id", "email", "invited_by", "created_at", "expires_at"])
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .orderBy("created_at", "desc")
    .limit(100)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }));
}

/**
 * Creates a one-time invitation for `rawEmail`; answers it with its token,
 * which is stored only hashed: the link can be shown once, to the inviter.
 */
export async function createInvite(
  db: Db,
  rawEmail: string,
  invitedBy: AdminUser,
): Promise<InviteListItem & { token: string }> {
  const email = normaliseEmail(rawEmail);
  if (!isValidEmail(email)) throw new AdminsError(400, "Enter a valid e-mail address");
  const existing = await db.selectFrom("admin_users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) throw new AdminsError(409, `${email} is already an administrator`);
  const token = newSecretToken(24);
  const now = new Date();
  const row = {
    id: randomUUID(),
    token_hash: sha256(token),
    email,
    invited_by: invitedBy.email,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITE_HOURS * 3_600_000).toISOString(),
  };
  await db.insertInto("admin_invites").values(row).execute();
  return {
    id: row.id,
    email,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    token,
  };
}

/** What the link's token is now: usable (with its e-mail), or why not. */
export async function inviteState(db: Db, token: string): Promise<{ state: InviteState; email?: string }> {
  if (!token || token.length > 200) return { state: "unknown" };
  const row = await db
    .selectFrom("admin_invites")
    .select(["email", "expires_at", "accepted_at", "revoked_at"])
    .where("token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row) return { state: "unknown" };
  if (row.accepted_at) return { state: "used" };
  if (row.revoked_at) return { state: "revoked" };
  if (row.expires_at <= new Date().toISOString()) return { state: "expired" };
  return { state: "valid", email: row.email };
}

export const INVITE_STATE_MESSAGES: Record<Exclude<InviteState, "valid">, string> = {
  unknown: "This invitation link is not valid. Check that it was copied whole, or ask for a new one.",
  used: "This invitation has already been used. If it was yours, sign in; otherwise ask for a new one.",
  revoked: "This invitation was withdrawn. Ask an administrator for a new one if you still need access.",
  expired: `This invitation has expired (links are valid for ${INVITE_HOURS} hours). Ask for a new one.`,
};

export class InviteError extends Error {
  constructor(readonly state: Exclude<InviteState, "valid">) {
    super(INVITE_STATE_MESSAGES[state]);
  }
}

function checkNewAdmin(name: string, password: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new AdminsError(400, "Enter your name");
  if (trimmed.length > ADMIN_NAME_MAX_LENGTH || !isStorableText(trimmed)) {
    throw new AdminsError(400, `Enter a name of at most ${ADMIN_NAME_MAX_LENGTH} characters`);
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AdminsError(400, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  return trimmed;
}

/**
 * Makes the invited administrator and signs them in. The invitation is
 * marked used by a conditional update inside the transaction: of two
 * acceptances at once, one changes the row and the other finds it used.
 */
export async function acceptInvite(
  db: Db,
  { token, name: rawName, password }: { token: string; name: string; password: string },
): Promise<{ user: AdminUser; setCookie: string }> {
  const name = checkNewAdmin(rawName, password);
  // The link is checked before the password is hashed (ADR 046): a wrong,
  // used or withdrawn link never waits in the hash queue.
  const before = await inviteState(db, token);
  if (before.state !== "valid") throw new InviteError(before.state);
  const passwordHash = await hashPassword(password);
  const id = randomUUID();
  const email = await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const taken = await trx
      .updateTable("admin_invites")
      .set({ accepted_at: now })
      .where("token_hash", "=", sha256(token))
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .returning("email")
      .executeTakeFirst();
    if (!taken) throw new InviteError((await inviteState(trx, token)).state as Exclude<InviteState, "valid">);
    try {
      await trx
        .insertInto("admin_users")
        .values({
          id,
          email: taken.email,
          name,
          password_hash: passwordHash,
          created_at: now,
          updated_at: now,
          last_sign_in_at: now,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AdminsError(409, `${taken.email} is already an administrator`);
      throw error;
    }
    return taken.email;
  });
  const { setCookie } = await createSession(db, id);
  return { user: { id, email }, setCookie };
}

/** Withdraws a pending invitation; answers its e-mail, or undefined when there is no such pending one. */
export async function revokeInvite(db: Db, id: string): Promise<string | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db
    .updateTable("admin_invites")
    .set({ revoked_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .returning("email")
    .executeTakeFirst();
  return row?.email;
}

const LAST_ADMIN_MESSAGE = "The last administrator cannot be removed: invite another one first";

/**
 * Removes an administrator, ends their sessions and withdraws the invitations
 * they made and nobody accepted yet (ADR 046: a removed administrator must
 * not come back through a link of their own), in one transaction that first
 * counts the administrators, so two removals at once can never leave none.
 * SQLite: the transaction begins IMMEDIATE (db.server.ts), so writers take
 * turns. PostgreSQL: the count reads every administrator's row FOR UPDATE,
 * so a second removal waits for the first to commit and then counts what is
 * left; an acceptance racing the removal updates the same invitation row,
 * so one of them waits and then finds the other's change. Answers the
 * removed administrator's e-mail.
 */
export async function removeAdministrator(db: Db, id: string): Promise<string> {
  if (!isRecordId(id)) throw new AdminsError(404, "Administrator not found");
  return db.transaction().execute(async (trx) => {
    let all = trx.selectFrom("admin_users").select(["id", "email"]);
    if (isPostgres(trx)) all = all.forUpdate();
    const admins = await all.execute();
    const target = admins.find((admin) => admin.id === id);
    if (!target) throw new AdminsError(404, "Administrator not found");
    if (admins.length <= 1) throw new AdminsError(409, LAST_ADMIN_MESSAGE);
    await trx.deleteFrom("sessions").where("user_id", "=", id).execute();
    await trx
      .updateTable("admin_invites")
      .set({ revoked_at: new Date().toISOString() })
      .where("invited_by", "=", target.email)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .execute();
    await trx.deleteFrom("admin_users").where("id", "=", id).execute();
    return target.email;
  });
}
