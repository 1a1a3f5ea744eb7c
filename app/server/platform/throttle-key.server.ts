import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { Connection } from "../db/db.server";

/**
 * The key throttle keys are hashed with, so `rate_limits` never holds a
 * visitor's address or a sign-in name, only an HMAC-SHA256 of it.
 *
 * - From the site's key material outside the database when it has some (the
 *   two-factor key: TOTP_ENCRYPTION_KEY, or with SQLite the key file beside
 *   the database), through HKDF-SHA256 with a label of its own, so the
 *   two-factor key itself is never used for this. A copy of the database
 *   alone then tells nothing about whose rows these are.
 * - Else (PostgreSQL without TOTP_ENCRYPTION_KEY) a random 32-byte secret in
 *   the table `throttle_secrets`, made by the first process that needs it
 *   (insert if absent, then read: every process reads the one that won).
 *   Whoever has a copy of the database has this secret too and can test
 *   guesses (every IPv4 address, a list of e-mails) against rows still in
 *   their window; pruning keeps rows at most a window (an hour) past.
 *
 * Platform code cannot read the two-factor key (it is identity's), so the
 * caller passes the key material in.
 */

const LABEL = "ojai-site throttle keys v1";
/** The stored hash: 128 bits of HMAC-SHA256, hex. */
const HASH_HEX_LENGTH = 32;
/** The row of `throttle_secrets` that holds the fallback secret. */
const SECRET_NAME = "throttle-hmac";

/** What the caller knows of the site's key outside the database (undefined: none). */
export type KeyMaterial = () => Buffer | undefined;

function deriveThrottleKey(material: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", material, Buffer.alloc(0), LABEL, 32));
}

/** The secret kept in the database, made once: insert if absent, then read, safe across processes. */
export async function databaseThrottleKey(connection: Connection): Promise<Buffer> {
  await connection.db
    .insertInto("throttle_secrets")
    .values({ name: SECRET_NAME, secret: randomBytes(32).toString("hex") })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await connection.db
    .selectFrom("throttle_secrets")
    .select("secret")
    .where("name", "=", SECRET_NAME)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.secret, "hex");
}

/** This process's key for `connection`: derived from the material, or the database's secret. */
export function resolveThrottleKey(connection: Connection, material: KeyMaterial): Promise<Buffer> {
  const outside = material();
  return outside ? Promise.resolve(deriveThrottleKey(outside)) : databaseThrottleKey(connection);
}

/**
 * The stored form of one throttle's key: the throttle's name is in the
 * hashed text, so one address's rows in two throttles (sign-in, contact)
 * cannot be matched with each other either.
 */
export function hashThrottleKey(hmacKey: Buffer, throttleName: string, key: string): string {
  return createHmac("sha256", hmacKey).update(`${throttleName}\n${key}`).digest("hex").slice(0, HASH_HEX_LENGTH);
}
