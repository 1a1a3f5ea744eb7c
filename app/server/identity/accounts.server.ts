import { randomUUID } from "node:crypto";
import { MIN_PASSWORD_LENGTH } from "~/lib/account";
import { isValidEmail } from "~/lib/email";
import { isUniqueViolation, type Db } from "../db/db.server";
import { hashPassword } from "./passwords.server";
import { currentSessionId, type AdminUser } from "./sessions.server";

/**
 * Administrators' accounts: the e-mail and password rules, adding one or
 * resetting a password from the command line, and changing one's own password.
 */

export { MIN_PASSWORD_LENGTH };

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * The administrator's e-mail as stored when `rawEmail` names one (any
 * spacing or capitals), else null. What a failed sign-in's audit entry may
 * keep: someone guessing an administrator's account is worth the owner's
 * eye, a stranger's typed address is not worth keeping. One indexed lookup
 * whether or not there is such an administrator.
 */
export async function administratorEmail(db: Db, rawEmail: string): Promise<string | null> {
  const row = await db
    .selectFrom("admin_users")
    .select("email")
    .where("email", "=", normaliseEmail(rawEmail))
    .executeTakeFirst();
  return row?.email ?? null;
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom("admin_users")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export class AccountError extends Error {}

export function checkNewCredentials(email: string, password: string) {
  if (!isValidEmail(email)) throw new AccountError("Enter a valid e-mail address");
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AccountError(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

/** Adds an administrator, or sets the password of an existing one. Returns whether it was created. */
export async function upsertAdmin(db: Db, rawEmail: string, password: string): Promise<"created" | "updated"> {
  const email = normaliseEmail(rawEmail);
  checkNewCredentials(email, password);
  const passwordHash = await hashPassword(password);
  const now = new Date().toISOString();
  const existing = await db.selectFrom("admin_users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("admin_users")
        .set({ password_hash: passwordHash, updated_at: now })
        .where("id", "=", existing.id)
        .execute();
      // A reset password ends every session that used the old one.
      await trx.deleteFrom("sessions").where("user_id", "=", existing.id).execute();
    });
    return "updated";
  }
  try {
    await db
      .insertInto("admin_users")
      .values({ id: randomUUID(), email, password_hash: passwordHash, created_at: now, updated_at: now })
      .execute();
  } catch (error) {
    // Another process (a second app process starting with the same
    // ADMIN_EMAIL) created it between our read and our insert.
    if (isUniqueViolation(error)) return upsertAdmin(db, rawEmail, password);
    throw error;
  }
  return "created";
}

/**
 * Sets a new password for the signed-in administrator (who gave the current
 * one) and signs out their other sessions; this one stays.
 */
export async function changeOwnPassword(db: Db, user: AdminUser, request: Request, newPassword: string): Promise<void> {
  checkNewCredentials(user.email, newPassword);
  const passwordHash = await hashPassword(newPassword);
  const current = (await currentSessionId(request)) ?? "";
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("admin_users")
      .set({ password_hash: passwordHash, updated_at: new Date().toISOString() })
      .where("id", "=", user.id)
      .execute();
    await trx.deleteFrom("sessions").where("user_id", "=", user.id).where("id", "<>", current).execute();
  });
}
