import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type Connection, isUniqueViolation, type Db } from "../db/db.server";
import { addressKey, createThrottle, type Throttle } from "../platform/throttle.server";
import { throttleKeyMaterial } from "./two-factor-key.server";
import { AccountError, checkNewCredentials, countAdmins, normaliseEmail } from "./accounts.server";
import { busyRefusal, HashingBusyError, hashPassword, type BusyRefusal } from "./passwords.server";
import { createSession, type AdminUser } from "./sessions.server";
import { SIGN_IN_THROTTLE, throttled } from "./sign-in.server";

/**
 * The first administrator (ADR 046): a one-time setup link printed at start,
 * used once to create the account while no administrator exists.
 */

const SETUP_TOKEN_HOURS = 24;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

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
const SETUP_THROTTLE = SIGN_IN_THROTTLE;

let setupAddresses: Throttle | undefined;
/** Built once at start (the identity domain's init), not on the first setup attempt. */
export function initSetupThrottle(connection: Connection): void {
  setupAddresses = createThrottle(connection, {
    name: "setup-address",
    ...SETUP_THROTTLE,
    keyMaterial: throttleKeyMaterial,
  });
}
function setupThrottle(): Throttle {
  if (!setupAddresses) throw new Error("the identity domain's init() was not called at start (server/startup.ts)");
  return setupAddresses;
}

type SetupResult =
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
