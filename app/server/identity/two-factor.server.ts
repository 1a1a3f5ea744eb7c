import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { CODE_MAX_LENGTH } from "~/lib/account";
import { ConfigError } from "../platform/config.server";
import type { Connection, Db } from "../db/db.server";
import { readSiteSettings } from "../settings/index.server";
import { addressKey, createThrottle, reserveAll, type Reservation, type Throttle } from "../platform/throttle.server";
import { getTotpKey, KEY_VARIABLE, throttleKeyMaterial } from "./two-factor-key.server";

/**
 * Two-factor sign-in (docs/product/contract.md#two-factor-sign-in, ADR 037): TOTP per RFC 6238 with SHA-1,
 * 6 digits and 30-second steps (what every authenticator app reads from a
 * QR code), and ten one-time recovery codes for a lost phone.
 *
 * - A code is accepted once: the accepted time step is stored per
 *   administrator and only ever raised, by one compare-and-set UPDATE, so
 *   two requests carrying the same code cannot both win.
 * - One step of clock drift either way is accepted.
 * - Code attempts are reserved on a throttle before they are checked, like
 *   passwords (ADR 021): five per account and per address in 15 minutes.
 * - Secrets are stored AES-256-GCM encrypted with a key kept outside the
 *   database (two-factor-key.server.ts, ADR 047); secrets an older version
 *   stored as they were (`plain:`) are encrypted at start.
 * - Recovery codes carry 120 bits and are stored as salted SHA-256 (ADR 047).
 */
const TOTP_SETTINGS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
/** Steps of clock drift accepted either side of now. */
const TOTP_DRIFT_STEPS = 1;
const RECOVERY_CODE_COUNT = 10;
const CODE_THROTTLE = { points: 5, durationSeconds: 15 * 60 };
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

/** What turning 2FA on answers on a site with no key (PostgreSQL without TOTP_ENCRYPTION_KEY). */
export const NO_KEY_MESSAGE = `Two-factor sign-in is not available on this site yet: whoever runs it must first set ${KEY_VARIABLE}, the same key on every app process.`;

/** This process's key (two-factor-key.server.ts), or undefined. */
const currentKey = () => getTotpKey()?.key;

/** Whether a stored secret is one an older version kept as it was. */
export const isPlainSecret = (stored: string) => stored.startsWith(`${PLAIN}:`);

/** `aes-256-gcm:iv:tag:ciphertext` (base64 parts). Without a key, 2FA cannot be turned on (409). */
export function sealSecret(base32: string, key: Buffer | undefined): string {
  if (!key) throw new TwoFactorError(NO_KEY_MESSAGE, 409);
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

/**
 * The base32 secret back; a sealed secret without the key that sealed it is
 * an operator's error. `plain:` secrets (an older version's) are still read:
 * between a process of that version writing one and the next start sealing it.
 */
export function openSecret(stored: string, key: Buffer | undefined): string {
  const [kind, ...parts] = stored.split(":");
  if (kind === PLAIN && parts.length === 1) return parts[0]!;
  if (kind === ENCRYPTED && parts.length === 3) {
    if (!key) {
      throw new SecretUnreadableError(
        `A two-factor secret is stored encrypted but this site has no key: set ${KEY_VARIABLE} to the key it was stored with`,
      );
    }
    const [iv, tag, encrypted] = parts.map((part) => Buffer.from(part, "base64"));
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, iv!);
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(encrypted!), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretUnreadableError(
        `A two-factor secret cannot be decrypted with this site's key (${KEY_VARIABLE} or its key file): it was stored with another key`,
      );
    }
  }
  throw new SecretUnreadableError("A two-factor secret is stored in a form this version does not know");
}

/** Whether `stored` opens with `key` (a plain secret always does). */
export function opensWith(stored: string, key: Buffer | undefined): boolean {
  try {
    openSecret(stored, key);
    return true;
  } catch (error) {
    if (error instanceof SecretUnreadableError) return false;
    throw error;
  }
}

const SECRET_COLUMNS = ["totp_secret", "totp_pending_secret"] as const;

/**
 * Encrypts the secrets an older version stored as they were (at start, in
 * every process): each by a compare-and-set on the value read, so processes
 * starting together encrypt each once and a second run finds none. A site
 * with such secrets and no key (PostgreSQL without TOTP_ENCRYPTION_KEY)
 * does not start: the one line says what to set.
 */
export async function encryptPlainSecrets(db: Db, key: Buffer | undefined): Promise<number> {
  const rows = await db
    .selectFrom("admin_users")
    .select(["id", ...SECRET_COLUMNS])
    .where((eb) => eb.or(SECRET_COLUMNS.map((column) => eb(column, "like", `${PLAIN}:%`))))
    .execute();
  if (rows.length === 0) return 0;
  if (!key) {
    throw new ConfigError(
      `Invalid configuration: ${KEY_VARIABLE} must be set: ${rows.length} administrator${rows.length === 1 ? "'s" : "s'"} two-factor secrets are stored unencrypted, and with PostgreSQL every app process needs the same key (make one with: openssl rand -base64 32)`,
    );
  }
  let encrypted = 0;
  for (const row of rows) {
    for (const column of SECRET_COLUMNS) {
      const value = row[column];
      if (value === null || !isPlainSecret(value)) continue;
      const updated = await db
        .updateTable("admin_users")
        .set({ [column]: sealSecret(openSecret(value, key), key) })
        .where("id", "=", row.id)
        .where(column, "=", value)
        .executeTakeFirst();
      encrypted += Number(updated.numUpdatedRows);
    }
  }
  return encrypted;
}

/** The e-mails of administrators whose 2FA secret this site's key cannot open (they cannot sign in). */
export async function unreadableSecrets(db: Db, key: Buffer | undefined): Promise<string[]> {
  const rows = await db
    .selectFrom("admin_users")
    .select(["email", "totp_secret"])
    .where("totp_secret", "is not", null)
    .orderBy("email")
    .execute();
  return rows.filter((row) => !opensWith(row.totp_secret!, key)).map((row) => row.email);
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
/** 24 letters of 5 bits: 120 bits, past any search of a stolen database (ADR 047). */
export const RECOVERY_CODE_LETTERS = 24;
const RECOVERY_GROUP = 4;
/** A recovery code as the check reads it, after normaliseCode. */
const RECOVERY_CODE = /^[0-9a-z]{24}$/;

/** Six groups of four letters, `xxxx-xxxx-xxxx-xxxx-xxxx-xxxx`, typed in any case, with or without the dashes. */
export function newRecoveryCode(): string {
  // 32 letters: each byte's low five bits pick one with equal chance.
  const letters = [...randomBytes(RECOVERY_CODE_LETTERS)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join("");
  const groups: string[] = [];
  for (let at = 0; at < letters.length; at += RECOVERY_GROUP) groups.push(letters.slice(at, at + RECOVERY_GROUP));
  return groups.join("-");
}

/**
 * A stored recovery code: `salted-sha256:SALT:HASH`, the SHA-256 of 16
 * random bytes and the normalised code (hex). The code's 120 bits are the
 * defence; the salt makes each stored value its own, so no table of hashes
 * applies. Entries without the prefix are an older version's 50-bit codes,
 * no longer accepted (ADR 047).
 */
const SALTED = "salted-sha256";

export function hashRecoveryCode(normalised: string, salt = randomBytes(16)): string {
  return `${SALTED}:${salt.toString("hex")}:${createHash("sha256").update(salt).update(normalised).digest("hex")}`;
}

const isCurrentEntry = (entry: string) => entry.startsWith(`${SALTED}:`);

/** Whether a stored entry is this code's, compared in constant time. */
function entryMatches(entry: string, normalised: string): boolean {
  const [kind, salt, hash] = entry.split(":");
  if (kind !== SALTED || !salt || !hash) return false;
  const expected = Buffer.from(hashRecoveryCode(normalised, Buffer.from(salt, "hex")).split(":")[2]!, "hex");
  const stored = Buffer.from(hash, "hex");
  return stored.length === expected.length && timingSafeEqual(stored, expected);
}

// ---------------------------------------------------------------- throttling

let throttles: { account: Throttle; address: Throttle } | undefined;
/** Built once at start (the identity domain's init), not on the first code. */
export function initCodeThrottles(connection: Connection): void {
  throttles = {
    account: createThrottle(connection, {
      name: "2fa-account",
      ...CODE_THROTTLE,
      keyMaterial: throttleKeyMaterial,
    }),
    address: createThrottle(connection, {
      name: "2fa-address",
      ...CODE_THROTTLE,
      keyMaterial: throttleKeyMaterial,
    }),
  };
}
function codeThrottles() {
  if (!throttles) throw new Error("the identity domain's init() was not called at start (server/startup.ts)");
  return throttles;
}

/** Reserves one code attempt for the account and the address (ADR 021's rule), before the code is checked. */
async function reserveCodeAttempt(userId: string, clientAddress: string) {
  const { account, address } = codeThrottles();
  const keys = { account: userId, address: addressKey(clientAddress) };
  // The address first, as sign-in's: one already full reserves nothing on the account.
  const reservation: Reservation = await reserveAll([
    [address, keys.address],
    [account, keys.account],
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

interface TwoFactorRow {
  id: string;
  totp_secret: string | null;
  totp_last_step: number | null;
  recovery_codes: string | null;
}

export async function twoFactorStatus(
  db: Db,
  userId: string,
): Promise<{
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
  /** Recovery codes an older version made (50 bits), kept but no longer accepted: the Account screen says so. */
  retiredRecoveryCodes: number;
  pending: boolean;
}> {
  const row = await db
    .selectFrom("admin_users")
    .select(["totp_secret", "totp_enabled_at", "recovery_codes", "totp_pending_secret"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const entries = row.totp_secret ? (JSON.parse(row.recovery_codes ?? "[]") as string[]) : [];
  return {
    enabled: row.totp_secret !== null,
    enabledAt: row.totp_enabled_at,
    recoveryCodesLeft: entries.filter(isCurrentEntry).length,
    retiredRecoveryCodes: entries.filter((entry) => !isCurrentEntry(entry)).length,
    pending: row.totp_secret === null && row.totp_pending_secret !== null,
  };
}

interface SetupDetails {
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
    .set({ totp_pending_secret: sealSecret(secret, currentKey()) })
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
  const secret = openSecret(row.totp_pending_secret, currentKey());
  return { secret, otpauthUrl: await otpauthUrl(db, user.email, secret) };
}

/**
 * The QR code of an otpauth:// URL as an SVG document, drawn here (no
 * outside service sees the secret). qrcode (and pngjs) load on the first
 * setup, not at every process's start.
 */
export async function qrCodeSvg(url: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

type CodeCheck = { ok: true } | { ok: false; status: 400 | 401; error: string } | ThrottledCode;
type ThrottledCode = { ok: false; status: 429; error: string; retryAfterSeconds: number };

const INVALID_CODE = "That code is not valid, or it was used already.";

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
  const step = matchingStep(openSecret(row.totp_pending_secret, currentKey()), normaliseCode(rawCode));
  if (step === undefined) return { ok: false, status: 400, error: INVALID_CODE };

  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = recoveryCodes.map((code) => hashRecoveryCode(normaliseCode(code)));
  const updated = await db
    .updateTable("admin_users")
    .set({
      // A pending secret an older process stored as it was is encrypted on its way.
      totp_secret: isPlainSecret(row.totp_pending_secret)
        ? sealSecret(openSecret(row.totp_pending_secret, currentKey()), currentKey())
        : row.totp_pending_secret,
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
  const key = currentKey();
  const secret = openSecret(user.totp_secret, key);
  const step = matchingStep(secret, code);
  if (step === undefined) return false;
  // A secret an older process stored as it was (a rolling upgrade) is encrypted with its first use.
  const resealed = isPlainSecret(user.totp_secret) && key ? sealSecret(secret, key) : undefined;
  // Only a later step than the last accepted one, in one statement: of two
  // requests with the same code, one updates the row and the other finds
  // the step already taken.
  const updated = await db
    .updateTable("admin_users")
    .set({ totp_last_step: step, ...(resealed ? { totp_secret: resealed } : {}) })
    .where("id", "=", user.id)
    .where("totp_secret", "=", user.totp_secret)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

async function spendRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  if (!RECOVERY_CODE.test(code)) return false;
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
    const entries = JSON.parse(row.recovery_codes) as string[];
    const used = entries.find((entry) => entryMatches(entry, code));
    if (used === undefined) return false;
    const updated = await db
      .updateTable("admin_users")
      .set({ recovery_codes: JSON.stringify(entries.filter((entry) => entry !== used)) })
      .where("id", "=", userId)
      .where("recovery_codes", "=", row.recovery_codes)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return true;
  }
  return false;
}
