import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createCookie, redirect } from "react-router";
import { CODE_REQUIRED, MIN_PASSWORD_LENGTH } from "~/lib/account";
import { isValidEmail } from "~/lib/email";
import { getConfig } from "./config.server";

export { MIN_PASSWORD_LENGTH };
import { isUniqueViolation, type Db } from "./db/db.server";
import { getConnection, getDb } from "./db/index.server";
import { getLogger } from "./logger.server";
import {
  busyRefusal,
  decoyHash,
  HashingBusyError,
  hashPassword,
  needsRehash,
  verifyPassword,
  type BusyRefusal,
} from "./passwords.server";
import { accountKey, addressKey, createThrottle, reserveAll, type Throttle } from "./throttle.server";
import { checkSecondFactor } from "./two-factor.server";
import { summariseUserAgent } from "~/lib/user-agent";

export interface AdminUser {
  id: string;
  email: string;
}

/** A session ends 14 days after sign-in (absolute) ... */
export const SESSION_DAYS = 14;
/** ... or after 24 hours without a request, whichever comes first (ADR 021). */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** A session's last-seen time is written at most this often, not on every request. */
export const LAST_SEEN_REFRESH_MS = 5 * 60 * 1000;
const SETUP_TOKEN_HOURS = 24;
export const INVALID_CREDENTIALS = "Invalid email or password";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * The session cookie's name. On https it carries the `__Host-` prefix, which
 * browsers accept only with Secure, Path=/ and no Domain: no subdomain or
 * plain-http page can set or shadow it. The page cache (server/app.ts) keys
 * its bypass on this same name.
 */
export function sessionCookieName(secure: boolean = getConfig().secureCookies): string {
  return secure ? "__Host-session" : "session";
}

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  const secure = getConfig().secureCookies;
  cookie ??= createCookie(sessionCookieName(secure), {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
  return cookie;
}

// ---------------------------------------------------------------- accounts

export async function countAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom("admin_users")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export class AccountError extends Error {}

function checkNewCredentials(email: string, password: string) {
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

// ---------------------------------------------------------------- sessions

/** Where a sign-in came from, kept with its session for the Account screen's list. */
export interface SessionClient {
  userAgent?: string | null;
  address?: string | null;
}

const USER_AGENT_MAX = 300;
const ADDRESS_MAX = 64;

export async function createSession(
  db: Db,
  userId: string,
  client: SessionClient = {},
): Promise<{ token: string; setCookie: string }> {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
  await db
    .insertInto("sessions")
    .values({
      id: sha256(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
      last_seen_at: now.toISOString(),
      // Bounded, and only characters every database stores (no NUL or lone surrogates).
      user_agent: storable(client.userAgent, USER_AGENT_MAX),
      ip_address: storable(client.address, ADDRESS_MAX),
    })
    .execute();
  return { token, setCookie: await sessionCookie().serialize(token, { expires }) };
}

function storable(value: string | null | undefined, max: number): string | null {
  if (!value) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const cleaned = value.replace(/[\u0000-\u001f\u007f\ud800-\udfff]/g, "").slice(0, max);
  return cleaned || null;
}

async function readToken(request: Request): Promise<string | undefined> {
  const value: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

export async function getAdmin(request: Request, db: Db = getDb()): Promise<AdminUser | undefined> {
  const token = await readToken(request);
  if (!token) return undefined;
  const id = sha256(token);
  const row = await db
    .selectFrom("sessions")
    .innerJoin("admin_users", "admin_users.id", "sessions.user_id")
    .select([
      "admin_users.id",
      "admin_users.email",
      "sessions.created_at",
      "sessions.expires_at",
      "sessions.last_seen_at",
    ])
    .where("sessions.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const now = Date.now();
  // A row written before last_seen_at existed counts as seen when it was created.
  const lastSeen = Date.parse(row.last_seen_at ?? row.created_at);
  if (row.expires_at <= new Date(now).toISOString() || !(lastSeen > now - SESSION_IDLE_MS)) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
    return undefined;
  }
  if (lastSeen <= now - LAST_SEEN_REFRESH_MS) {
    await db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(now).toISOString() })
      .where("id", "=", id)
      .execute();
  }
  return { id: row.id, email: row.email };
}

/** For /api/admin/*: the signed-in administrator, or a 401 JSON answer. */
export async function requireAdminApi(request: Request): Promise<AdminUser> {
  const admin = await getAdmin(request);
  if (!admin) throw Response.json({ error: "Authentication required" }, { status: 401 });
  return admin;
}

/** One sign-in check per request, however many of its loaders ask (requireAdminPage). */
const pageAdmins = new WeakMap<Request, Promise<AdminUser>>();

/**
 * For admin pages: the signed-in administrator, or a redirect to sign-in.
 * The admin layout's loader and each screen's own loader both call it
 * (ADR 051): React Router runs them side by side, and a data request may
 * ask for the screen's loader alone. Kept per request, the session is looked
 * up once.
 */
export function requireAdminPage(request: Request): Promise<AdminUser> {
  let admin = pageAdmins.get(request);
  if (!admin) {
    admin = getAdmin(request).then((found) => {
      if (!found) throw redirect("/admin/login");
      return found;
    });
    pageAdmins.set(request, admin);
  }
  return admin;
}

/** Revokes the request's session (if any); returns the Set-Cookie that clears it. */
export async function signOut(request: Request, db: Db = getDb()): Promise<string> {
  const token = await readToken(request);
  if (token) await db.deleteFrom("sessions").where("id", "=", sha256(token)).execute();
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/** Removes sessions past their absolute end or idle for longer than SESSION_IDLE_MS. */
export async function deleteExpiredSessions(db: Db): Promise<void> {
  const now = Date.now();
  const idleSince = new Date(now - SESSION_IDLE_MS).toISOString();
  await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", new Date(now).toISOString()),
        eb("last_seen_at", "<=", idleSince),
        eb.and([eb("last_seen_at", "is", null), eb("created_at", "<=", idleSince)]),
      ]),
    )
    .execute();
}

// ---------------------------------------------------------------- sign-in

/** Per account and per client address: this many checked attempts in a window (docs/product/contract.md#admin-accounts, ADR 021). */
export const SIGN_IN_THROTTLE = { points: 5, durationSeconds: 15 * 60 };

let throttles: { account: Throttle; address: Throttle } | undefined;
function signInThrottles() {
  throttles ??= {
    account: createThrottle(getConnection(), { name: "login-account", ...SIGN_IN_THROTTLE }),
    address: createThrottle(getConnection(), { name: "login-address", ...SIGN_IN_THROTTLE }),
  };
  return throttles;
}

/** Lets the account try again at once (`npm run admin -- set-password`). */
export async function clearSignInThrottle(rawEmail: string): Promise<void> {
  await signInThrottles().account.reset(accountKey(normaliseEmail(rawEmail)));
}

export type SignInResult =
  | { ok: true; user: AdminUser; setCookie: string }
  | { ok: false; status: 401; error: string; twoFactorRequired?: true }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number; twoFactorRequired?: true }
  | BusyRefusal;

export { CODE_REQUIRED };

function throttled(
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
  const reservation = await reserveAll([
    [account, accountId],
    [address, addressId],
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

// ---------------------------------------------------------------- first administrator

/** Creates a one-time setup token (stored hashed); the caller prints the link. */
export async function createSetupToken(db: Db): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const now = new Date();
  await db
    .insertInto("setup_tokens")
    .values({
      token_hash: sha256(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SETUP_TOKEN_HOURS * 3_600_000).toISOString(),
    })
    .execute();
  return token;
}

/** Longer is no token of ours (they are 32 characters): refused before it is hashed or looked up. */
const SETUP_TOKEN_MAX_LENGTH = 200;

/** Whether the token may create the first administrator right now. */
export async function isSetupTokenValid(db: Db, token: string): Promise<boolean> {
  return (await countAdmins(db)) === 0 && (await isSetupTokenLive(db, token));
}

/** Whether the token is one of ours, unused and unexpired (whether an administrator exists aside). */
async function isSetupTokenLive(db: Db, token: string): Promise<boolean> {
  if (!token || token.length > SETUP_TOKEN_MAX_LENGTH) return false;
  const row = await db
    .selectFrom("setup_tokens")
    .select("expires_at")
    .where("token_hash", "=", sha256(token))
    .executeTakeFirst();
  return Boolean(row && row.expires_at > new Date().toISOString());
}

export const SETUP_TOKEN_INVALID = "This setup link is invalid or has already been used";
export const SETUP_CLOSED = "Setup is closed: an administrator already exists. Sign in instead.";

class SetupTokenError extends Error {}

/** Setup attempts per client address in a window, counted like sign-in's (ADR 046). */
export const SETUP_THROTTLE = SIGN_IN_THROTTLE;

let setupAddresses: Throttle | undefined;
const setupThrottle = () =>
  (setupAddresses ??= createThrottle(getConnection(), { name: "setup-address", ...SETUP_THROTTLE }));

export type SetupResult =
  | { ok: true; user: AdminUser; setCookie: string }
  | { ok: false; status: 400 | 403; error: string }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number }
  | BusyRefusal;

/**
 * Creates the first administrator with a valid setup token, then voids every
 * token. Cheap checks come first and the password is hashed last (ADR 046):
 * the e-mail and password rules (400, not counted), then one attempt reserved
 * on the client address (429 past five in the window, across processes),
 * then the token and whether an administrator exists (403, counted). A wrong
 * token or a closed setup never reaches the hash queue.
 */
export async function completeSetup(
  db: Db,
  { token, email: rawEmail, password }: { token: string; email: string; password: string },
  clientAddress: string,
): Promise<SetupResult> {
  const email = normaliseEmail(rawEmail);
  try {
    checkNewCredentials(email, password);
  } catch (error) {
    if (error instanceof AccountError) return { ok: false, status: 400, error: error.message };
    throw error;
  }
  const throttle = setupThrottle();
  const addressId = addressKey(clientAddress);
  const reservation = await throttle.reserve(addressId);
  if (!reservation.ok) return throttled(reservation.retryAfterMs, "setup");
  let id: string;
  try {
    if ((await countAdmins(db)) > 0) return { ok: false, status: 403, error: SETUP_CLOSED };
    if (!(await isSetupTokenLive(db, token))) return { ok: false, status: 403, error: SETUP_TOKEN_INVALID };
    id = await createFirstAdmin(db, token, email, await hashPassword(password));
  } catch (error) {
    // A token used up meanwhile counts like a wrong one; anything else was not a guess.
    if (error instanceof SetupTokenError) return { ok: false, status: 403, error: SETUP_TOKEN_INVALID };
    await throttle.refund(addressId).catch(() => {});
    if (error instanceof HashingBusyError) return busyRefusal();
    throw error;
  }
  await throttle.refund(addressId);
  const { setCookie } = await createSession(db, id);
  return { ok: true, user: { id, email }, setCookie };
}

async function createFirstAdmin(db: Db, token: string, email: string, passwordHash: string): Promise<string> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    // Deleting the token inside the transaction makes it single-use even under concurrent requests.
    const removed = await trx
      .deleteFrom("setup_tokens")
      .where("token_hash", "=", sha256(token))
      .where("expires_at", ">", now)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1 || (await countAdmins(trx)) > 0) throw new SetupTokenError();
    try {
      await trx
        .insertInto("admin_users")
        .values({ id, email, password_hash: passwordHash, created_at: now, updated_at: now })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new SetupTokenError();
      throw error;
    }
    await trx.deleteFrom("setup_tokens").execute();
  });
  return id;
}

// ---------------------------------------------------------------- the signed-in administrator's own account

export const WRONG_PASSWORD = "The password is not correct";
/** The API's 400 for a sensitive action sent without the current password (ADR 046). */
export const PASSWORD_REQUIRED = "Send your current password as the JSON field password";
/** The screens' answer to the same, beside the empty field. */
export const PASSWORD_MISSING = "Enter your password.";

export type PasswordCheck =
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
  const reservation = await reserveAll([
    [account, accountId],
    [address, addressId],
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

/** The request's session row id (the SHA-256 of its cookie's token), if it has a cookie. */
export async function currentSessionId(request: Request): Promise<string | undefined> {
  const token = await readToken(request);
  return token ? sha256(token) : undefined;
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

export interface SessionSummary {
  /** Not the row's id (the hash that finds a cookie's session): a hash of it, to name it in a URL. */
  id: string;
  createdAt: string;
  lastSeenAt: string;
  browser: string;
  address: string | null;
  current: boolean;
}

const publicSessionId = (rowId: string) => sha256(`session-list:${rowId}`).slice(0, 32);

/** This administrator's live sessions, the one in use first, then the most recently seen. */
export async function listOwnSessions(db: Db, user: AdminUser, request: Request): Promise<SessionSummary[]> {
  const current = await currentSessionId(request);
  const now = Date.now();
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "created_at", "expires_at", "last_seen_at", "user_agent", "ip_address"])
    .where("user_id", "=", user.id)
    .execute();
  return rows
    .filter((row) => {
      const lastSeen = Date.parse(row.last_seen_at ?? row.created_at);
      return row.expires_at > new Date(now).toISOString() && lastSeen > now - SESSION_IDLE_MS;
    })
    .map((row) => ({
      id: publicSessionId(row.id),
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at ?? row.created_at,
      browser: summariseUserAgent(row.user_agent),
      address: row.ip_address,
      current: row.id === current,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
}

/** Signs out one of this administrator's sessions by its listed id; false when there is none. */
export async function revokeOwnSession(db: Db, user: AdminUser, listedId: string): Promise<boolean> {
  const rows = await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
  const row = rows.find((candidate) => publicSessionId(candidate.id) === listedId);
  if (!row) return false;
  const deleted = await db
    .deleteFrom("sessions")
    .where("id", "=", row.id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}

/** "Sign out everywhere else": every session of this administrator but the request's own. */
export async function revokeOtherSessions(db: Db, user: AdminUser, request: Request): Promise<number> {
  const current = (await currentSessionId(request)) ?? "";
  const deleted = await db
    .deleteFrom("sessions")
    .where("user_id", "=", user.id)
    .where("id", "<>", current)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
