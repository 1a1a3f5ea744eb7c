import { CODE_REQUIRED } from "~/lib/account";
import type { Connection, Db } from "../db/db.server";
import { getDb } from "../db/index.server";
import { getLogger } from "../platform/logger.server";
import { accountKey, addressKey, createThrottle, reserveAll, type Throttle } from "../platform/throttle.server";
import { normaliseEmail } from "./accounts.server";
import {
  busyRefusal,
  decoyHash,
  HashingBusyError,
  hashPassword,
  needsRehash,
  verifyPassword,
  type BusyRefusal,
} from "./passwords.server";
import { createSession, type AdminUser } from "./sessions.server";
import { checkSecondFactor } from "./two-factor.server";
import { throttleKeyMaterial } from "./two-factor-key.server";

/**
 * Signing in, and the password asked again before a sensitive action: both
 * counted on the same throttles, per account and per client address (ADR 021, ADR 046).
 */

const INVALID_CREDENTIALS = "Invalid email or password";

/** Per account and per client address: this many checked attempts in a window (docs/product/contract.md#admin-accounts, ADR 021). */
export const SIGN_IN_THROTTLE = { points: 5, durationSeconds: 15 * 60 };

let throttles: { account: Throttle; address: Throttle } | undefined;
/** Built once at start (the identity domain's init), not on the first sign-in. */
export function initSignInThrottles(connection: Connection): void {
  throttles = {
    account: createThrottle(connection, {
      name: "login-account",
      ...SIGN_IN_THROTTLE,
      keyMaterial: throttleKeyMaterial,
    }),
    address: createThrottle(connection, {
      name: "login-address",
      ...SIGN_IN_THROTTLE,
      keyMaterial: throttleKeyMaterial,
    }),
  };
}
function signInThrottles() {
  if (!throttles) throw new Error("the identity domain's init() was not called at start (server/startup.ts)");
  return throttles;
}

/** Lets the account try again at once (`npm run admin -- set-password`). */
export async function clearSignInThrottle(rawEmail: string): Promise<void> {
  await signInThrottles().account.reset(accountKey(normaliseEmail(rawEmail)));
}

type SignInResult =
  | { ok: true; user: AdminUser; setCookie: string }
  | { ok: false; status: 401; error: string; twoFactorRequired?: true }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number; twoFactorRequired?: true }
  | BusyRefusal;

export function throttled(
  retryAfterMs: number,
  what: "sign-in" | "setup" = "sign-in",
): { ok: false; status: 429; error: string; retryAfterSeconds: number } {
  const retryAfterSeconds = Math.ceil(retryAfterMs / 1000);
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return {
    ok: false,
    status: 429,
    error: `Too many ${what} attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    retryAfterSeconds,
  };
}

/**
 * Same answer and the same work for an unknown e-mail and a wrong password.
 * Each attempt is counted against its account and its client address BEFORE
 * the password is checked (ADR 021): at most five attempts per account and
 * per address are checked in a fifteen-minute window, however many arrive at
 * once or through however many processes; the others get 429. A success
 * clears the account's count and gives the address its attempt back.
 */
export async function signIn(
  {
    email: rawEmail,
    password,
    code,
    userAgent,
  }: {
    email: string;
    password: string;
    /** With 2FA on: a current TOTP code or an unused recovery code (ADR 037). */
    code?: string;
    /** Kept with the session for the Account screen's list. */
    userAgent?: string | null;
  },
  clientAddress: string,
  db: Db = getDb(),
): Promise<SignInResult> {
  const email = normaliseEmail(rawEmail);
  const { account, address } = signInThrottles();
  const accountId = accountKey(email);
  const addressId = addressKey(clientAddress);
  // The address first: one already full reserves nothing on the account, so adds no row (ADR 021).
  const reservation = await reserveAll([
    [address, addressId],
    [account, accountId],
  ]);
  if (!reservation.ok) return throttled(reservation.retryAfterMs);

  let user:
    | {
        id: string;
        email: string;
        password_hash: string;
        totp_secret: string | null;
        totp_last_step: number | null;
        recovery_codes: string | null;
      }
    | undefined;
  let valid: boolean;
  try {
    user = await db
      .selectFrom("admin_users")
      .select(["id", "email", "password_hash", "totp_secret", "totp_last_step", "recovery_codes"])
      .where("email", "=", email)
      .executeTakeFirst();
    valid = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
  } catch (error) {
    // Our fault or no hash slot, not a guess: the attempt does not count.
    await Promise.all([account.refund(accountId), address.refund(addressId)]).catch(() => {});
    if (error instanceof HashingBusyError) return busyRefusal();
    throw error;
  }
  // A wrong password answers the same whether the account has 2FA or not:
  // nothing here tells which accounts have it.
  if (!user || !valid) return { ok: false, status: 401, error: INVALID_CREDENTIALS };

  if (user.totp_secret !== null) {
    // The password was right: it is not a guess to count. The code has its own throttle.
    await Promise.all([account.refund(accountId), address.refund(addressId)]);
    if (!code) return { ok: false, status: 401, error: CODE_REQUIRED, twoFactorRequired: true };
    const second = await checkSecondFactor(db, user, code, clientAddress);
    if (!second.ok) {
      return second.status === 429
        ? { ...second, twoFactorRequired: true }
        : { ok: false, status: 401, error: second.error, twoFactorRequired: true };
    }
  }

  await Promise.all([account.reset(accountId), address.refund(addressId)]);
  if (needsRehash(user.password_hash)) await rehash(db, user.id, user.password_hash, password);
  const { setCookie } = await createSession(db, user.id, { userAgent, address: clientAddress });
  return { ok: true, user: { id: user.id, email: user.email }, setCookie };
}

/**
 * Stores the password again with today's parameters, unless the hash changed
 * meanwhile (a password reset in between wins). A failure here does not stop
 * the sign-in: the old hash still verifies, and the next sign-in tries again.
 */
async function rehash(db: Db, userId: string, oldHash: string, password: string): Promise<void> {
  try {
    await db
      .updateTable("admin_users")
      .set({ password_hash: await hashPassword(password), updated_at: new Date().toISOString() })
      .where("id", "=", userId)
      .where("password_hash", "=", oldHash)
      .execute();
  } catch (error) {
    getLogger().warn({ err: error, userId }, "could not rehash a password with the current parameters");
  }
}

const WRONG_PASSWORD = "The password is not correct";
/** The API's 400 for a sensitive action sent without the current password (ADR 046). */
export const PASSWORD_REQUIRED = "Send your current password as the JSON field password";
/** The screens' answer to the same, beside the empty field. */
export const PASSWORD_MISSING = "Enter your password.";

type PasswordCheck =
  | { ok: true }
  | { ok: false; status: 403; error: string }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number }
  | BusyRefusal;

/**
 * The signed-in administrator's password, asked again before an action a
 * borrowed session must not take alone (ADR 046): setting up or turning off
 * 2FA, changing the password, inviting or removing an administrator. Counted
 * on the sign-in throttles before it is checked, so a borrowed session cannot
 * be used to guess the password any faster than the sign-in screen allows.
 */
export async function checkOwnPassword(
  user: AdminUser,
  password: string,
  clientAddress: string,
  db: Db = getDb(),
): Promise<PasswordCheck> {
  const { account, address } = signInThrottles();
  const accountId = accountKey(normaliseEmail(user.email));
  const addressId = addressKey(clientAddress);
  // The address first: one already full reserves nothing on the account, so adds no row (ADR 021).
  const reservation = await reserveAll([
    [address, addressId],
    [account, accountId],
  ]);
  if (!reservation.ok) return throttled(reservation.retryAfterMs);
  let valid: boolean;
  try {
    const row = await db.selectFrom("admin_users").select("password_hash").where("id", "=", user.id).executeTakeFirst();
    // Removed since this request's session was read (another administrator's removal won a race).
    if (!row) throw Response.json({ error: "Authentication required" }, { status: 401 });
    valid = await verifyPassword(password, row.password_hash);
  } catch (error) {
    await Promise.all([account.refund(accountId), address.refund(addressId)]).catch(() => {});
    if (error instanceof HashingBusyError) return busyRefusal();
    throw error;
  }
  if (!valid) return { ok: false, status: 403, error: WRONG_PASSWORD };
  await Promise.all([account.refund(accountId), address.refund(addressId)]);
  return { ok: true };
}
