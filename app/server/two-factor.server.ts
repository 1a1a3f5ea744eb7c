import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { CODE_MAX_LENGTH } from "~/lib/account";
import { getConfig } from "./config.server";
import type { Db } from "./db/db.server";
import { getConnection } from "./db/index.server";
import { readSiteSettings } from "./settings.server";
import { addressKey, createThrottle, reserveAll, type Reservation, type Throttle } from "./throttle.server";

/**
 * Two-factor sign-in (PRODUCT §10, ADR 037): TOTP per RFC 6238 with SHA-1,
 * 6 digits and 30-second steps (what every authenticator app reads from a
 * QR code), and ten one-time recovery codes for a lost phone.
 *
 * - A code is accepted once: the accepted time step is stored per
 *   administrator and only ever raised, by one compare-and-set UPDATE, so
 *   two requests carrying the same code cannot both win.
 * - One step of clock drift either way is accepted.
 * - Code attempts are reserved on a throttle before they are checked, like
 *   passwords (ADR 021): five per account and per address in 15 minutes.
 * - Secrets are stored AES-256-GCM encrypted with TOTP_ENCRYPTION_KEY, or,
 *   without a key, as they are with a `plain:` mark.
 */
export const TOTP_SETTINGS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
/** Steps of clock drift accepted either side of now. */
export const TOTP_DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
export const CODE_THROTTLE = { points: 5, durationSeconds: 15 * 60 };
export { CODE_MAX_LENGTH };

export class TwoFactorError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 409,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------- secrets at rest

const ENCRYPTED = "aes-256-gcm";
const PLAIN = "plain";

/** `aes-256-gcm:iv:tag:ciphertext` (base64 parts) with a key, `plain:BASE32` without. */
export function sealSecret(base32: string, key: Buffer | undefined = getConfig().totpEncryptionKey): string {
  if (!key) return `${PLAIN}:${base32}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const encrypted = Buffer.concat([cipher.update(base32, "utf8"), cipher.final()]);
  return [ENCRYPTED, iv.toString("base64"), cipher.getAuthTag().toString("base64"), encrypted.toString("base64")].join(
    ":",
  );
}

export class SecretUnreadableError extends Error {
  override name = "SecretUnreadableError";
}

/** The base32 secret back; a sealed secret without the key that sealed it is an operator's error. */
export function openSecret(stored: string, key: Buffer | undefined = getConfig().totpEncryptionKey): string {
  const [kind, ...parts] = stored.split(":");
  if (kind === PLAIN && parts.length === 1) return parts[0]!;
  if (kind === ENCRYPTED && parts.length === 3) {
    if (!key) {
      throw new SecretUnreadableError(
        "A two-factor secret is stored encrypted but TOTP_ENCRYPTION_KEY is not set: set the key it was stored with",
      );
    }
    const [iv, tag, encrypted] = parts.map((part) => Buffer.from(part, "base64"));
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, iv!);
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(encrypted!), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretUnreadableError(
        "A two-factor secret cannot be decrypted with TOTP_ENCRYPTION_KEY: it was stored with another key",
      );
    }
  }
  throw new SecretUnreadableError("A two-factor secret is stored in a form this version does not know");
}

// ---------------------------------------------------------------- codes

function totp(base32: string, label = "admin", issuer = "") {
  return new TOTP({ ...TOTP_SETTINGS, issuer, label, secret: Secret.fromBase32(base32) });
}

const currentStep = (now: number) => Math.floor(now / 1000 / TOTP_SETTINGS.period);

/** The time step a TOTP code belongs to (within the drift allowed), or undefined. */
export function matchingStep(base32: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(base32).validate({ token: code, timestamp: now, window: TOTP_DRIFT_STEPS });
  return delta === null ? undefined : currentStep(now) + delta;
}

/** What a person types, as a code: spaces and dashes dropped, letters lower-cased, look-alikes read as digits. */
export function normaliseCode(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[\s-]+/g, "")
    .replace(/[il]/g, "1")
    .replace(/o/g, "0");
}

/** Crockford's base32 alphabet: no i, l, o or u, so nothing reads as something else. */
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function newRecoveryCode(): string {
  // 32 letters: each byte's low five bits pick one with equal chance. 10 letters = 50 bits.
  const letters = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join("");
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

const hashRecoveryCode = (normalised: string) => createHash("sha256").update(normalised).digest("hex");

// ---------------------------------------------------------------- throttling

let throttles: { account: Throttle; address: Throttle } | undefined;
function codeThrottles() {
  throttles ??= {
    account: createThrottle(getConnection(), { name: "2fa-account", ...CODE_THROTTLE }),
    address: createThrottle(getConnection(), { name: "2fa-address", ...CODE_THROTTLE }),
  };
  return throttles;
}

/** Reserves one code attempt for the account and the address (ADR 021's rule), before the code is checked. */
async function reserveCodeAttempt(userId: string, clientAddress: string) {
  const { account, address } = codeThrottles();
  const keys = { account: userId, address: addressKey(clientAddress) };
  const reservation: Reservation = await reserveAll([
    [account, keys.account],
    [address, keys.address],
  ]);
  return {
    reservation,
    /** A right code: the account's count starts again; the address gets its attempt back. */
    succeeded: () => Promise.all([account.reset(keys.account), address.refund(keys.address)]).then(() => {}),
    /** Our own failure: the attempt does not count. */
    refund: () => Promise.all([account.refund(keys.account), address.refund(keys.address)]).then(() => {}),
  };
}

/** Lets the account try codes again at once (`npm run admin -- reset-2fa`). */
async function clearCodeThrottle(userId: string): Promise<void> {
  await codeThrottles().account.reset(userId);
}

// ---------------------------------------------------------------- state

export interface TwoFactorRow {
  id: string;
  totp_secret: string | null;
  totp_last_step: number | null;
  recovery_codes: string | null;
}

export async function twoFactorStatus(
  db: Db,
  userId: string,
): Promise<{ enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number; pending: boolean }> {
  const row = await db
    .selectFrom("admin_users")
    .select(["totp_secret", "totp_enabled_at", "recovery_codes", "totp_pending_secret"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    enabled: row.totp_secret !== null,
    enabledAt: row.totp_enabled_at,
    recoveryCodesLeft: row.totp_secret ? (JSON.parse(row.recovery_codes ?? "[]") as string[]).length : 0,
    pending: row.totp_secret === null && row.totp_pending_secret !== null,
  };
}

export interface SetupDetails {
  secret: string;
  otpauthUrl: string;
}

async function otpauthUrl(db: Db, email: string, base32: string): Promise<string> {
  const issuer = (await readSiteSettings(db)).companyName;
  return totp(base32, email, issuer).toString();
}

/**
 * Starts turning 2FA on: a new secret, kept as pending until a code confirms
 * it (a second call replaces it). Refused while 2FA is on: turning it off
 * first asks for the password, so a borrowed session cannot move it to
 * another phone.
 */
export async function beginSetup(db: Db, user: { id: string; email: string }): Promise<SetupDetails> {
  const secret = new Secret({ size: 20 }).base32;
  const updated = await db
    .updateTable("admin_users")
    .set({ totp_pending_secret: sealSecret(secret) })
    .where("id", "=", user.id)
    .where("totp_secret", "is", null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    throw new TwoFactorError("Two-factor sign-in is already on; turn it off first to set it up again", 409);
  }
  return { secret, otpauthUrl: await otpauthUrl(db, user.email, secret) };
}

/** The setup in progress (for the Account screen after a reload), or undefined. */
export async function pendingSetup(db: Db, user: { id: string; email: string }): Promise<SetupDetails | undefined> {
  const row = await db
    .selectFrom("admin_users")
    .select(["totp_pending_secret", "totp_secret"])
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  if (row.totp_secret !== null || row.totp_pending_secret === null) return undefined;
  const secret = openSecret(row.totp_pending_secret);
  return { secret, otpauthUrl: await otpauthUrl(db, user.email, secret) };
}

/** The QR code of an otpauth:// URL as an SVG document, drawn here (no outside service sees the secret). */
export function qrCodeSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

export type CodeCheck = { ok: true } | { ok: false; status: 400 | 401; error: string } | ThrottledCode;
export type ThrottledCode = { ok: false; status: 429; error: string; retryAfterSeconds: number };

export const INVALID_CODE = "That code is not valid, or it was used already.";

function throttledCode(retryAfterMs: number): ThrottledCode {
  const retryAfterSeconds = Math.ceil(retryAfterMs / 1000);
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return {
    ok: false,
    status: 429,
    error: `Too many code attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    retryAfterSeconds,
  };
}

/**
 * Confirms the pending secret with a code from the app and turns 2FA on.
 * Answers the ten recovery codes, shown once; only their hashes are kept.
 */
export async function enableTwoFactor(
  db: Db,
  userId: string,
  rawCode: string,
  clientAddress: string,
): Promise<{ ok: true; recoveryCodes: string[] } | Exclude<CodeCheck, { ok: true }>> {
  const row = await db
    .selectFrom("admin_users")
    .select(["totp_pending_secret", "totp_secret"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  if (row.totp_secret !== null) return { ok: false, status: 400, error: "Two-factor sign-in is already on" };
  if (row.totp_pending_secret === null) {
    return { ok: false, status: 400, error: "Start the setup first (POST /api/auth/2fa/setup)" };
  }
  const attempt = await reserveCodeAttempt(userId, clientAddress);
  if (!attempt.reservation.ok) return throttledCode(attempt.reservation.retryAfterMs);
  const step = matchingStep(openSecret(row.totp_pending_secret), normaliseCode(rawCode));
  if (step === undefined) return { ok: false, status: 400, error: INVALID_CODE };

  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = recoveryCodes.map((code) => hashRecoveryCode(normaliseCode(code)));
  const updated = await db
    .updateTable("admin_users")
    .set({
      totp_secret: row.totp_pending_secret,
      totp_pending_secret: null,
      totp_enabled_at: new Date().toISOString(),
      // The code that turned it on is used: it cannot sign in too.
      totp_last_step: step,
      recovery_codes: JSON.stringify(hashes),
    })
    .where("id", "=", userId)
    .where("totp_secret", "is", null)
    .where("totp_pending_secret", "=", row.totp_pending_secret)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    // A parallel request turned it on (or restarted the setup) in between.
    return { ok: false, status: 400, error: "The setup changed meanwhile; reload and start again" };
  }
  await attempt.succeeded();
  return { ok: true, recoveryCodes };
}

/** Turns 2FA off and forgets the secret, a pending one and the recovery codes. The caller checked the password. */
export async function disableTwoFactor(db: Db, userId: string): Promise<void> {
  await db
    .updateTable("admin_users")
    .set({
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      recovery_codes: null,
    })
    .where("id", "=", userId)
    .execute();
}

/** `npm run admin -- reset-2fa EMAIL`: 2FA off for a lost phone. False for an unknown e-mail. */
export async function resetTwoFactor(db: Db, email: string): Promise<boolean> {
  const user = await db
    .selectFrom("admin_users")
    .select("id")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  if (!user) return false;
  await disableTwoFactor(db, user.id);
  await clearCodeThrottle(user.id);
  return true;
}

/**
 * The second factor at sign-in, after the password was found right: a TOTP
 * code not used before, or an unused recovery code (then used up). The
 * attempt is reserved before anything is checked.
 */
export async function checkSecondFactor(
  db: Db,
  user: TwoFactorRow,
  rawCode: string,
  clientAddress: string,
): Promise<CodeCheck> {
  const attempt = await reserveCodeAttempt(user.id, clientAddress);
  if (!attempt.reservation.ok) return throttledCode(attempt.reservation.retryAfterMs);
  let accepted: boolean;
  try {
    const code = normaliseCode(rawCode);
    accepted = /^\d{6}$/.test(code) ? await spendTotpCode(db, user, code) : await spendRecoveryCode(db, user.id, code);
  } catch (error) {
    await attempt.refund().catch(() => {});
    throw error;
  }
  if (!accepted) return { ok: false, status: 401, error: INVALID_CODE };
  await attempt.succeeded();
  return { ok: true };
}

async function spendTotpCode(db: Db, user: TwoFactorRow, code: string): Promise<boolean> {
  if (user.totp_secret === null) return false;
  const step = matchingStep(openSecret(user.totp_secret), code);
  if (step === undefined) return false;
  // Only a later step than the last accepted one, in one statement: of two
  // requests with the same code, one updates the row and the other finds
  // the step already taken.
  const updated = await db
    .updateTable("admin_users")
    .set({ totp_last_step: step })
    .where("id", "=", user.id)
    .where("totp_secret", "=", user.totp_secret)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

async function spendRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  if (!/^[0-9a-z]{10}$/.test(code)) return false;
  const hash = hashRecoveryCode(code);
  // Compare-and-set on the whole list: a parallel use of the same code
  // finds the list changed and, reading it again, the code gone. A parallel
  // use of another code only makes this one read again.
  for (let tries = 0; tries < 5; tries++) {
    const row = await db
      .selectFrom("admin_users")
      .select(["recovery_codes", "totp_secret"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!row?.recovery_codes || row.totp_secret === null) return false;
    const hashes = JSON.parse(row.recovery_codes) as string[];
    if (!hashes.includes(hash)) return false;
    const updated = await db
      .updateTable("admin_users")
      .set({ recovery_codes: JSON.stringify(hashes.filter((h) => h !== hash)) })
      .where("id", "=", userId)
      .where("recovery_codes", "=", row.recovery_codes)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return true;
  }
  return false;
}
