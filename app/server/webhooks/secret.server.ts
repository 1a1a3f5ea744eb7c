import { createHmac, randomBytes } from "node:crypto";
import { getTotpKey, opensWith, openSecret, sealSecret } from "../identity/index.server";

/**
 * A webhook's secret and its signatures (Standard Webhooks, ADR 068). The
 * secret is `whsec_` and 24 random bytes in base64; the signature of one
 * attempt is `v1,` and the base64 HMAC-SHA256, keyed with those bytes, of
 * `{webhook-id}.{webhook-timestamp}.{body}`. Checked in the tests with the
 * specification's own library (standardwebhooks' Webhook.verify).
 *
 * At rest the secret is sealed with the site's key, through identity's
 * sealing of two-factor secrets (ADR 047): the same key (TOTP_ENCRYPTION_KEY
 * or SQLite's key file), never in the database or a backup.
 */

const PREFIX = "whsec_";
const SECRET_BYTES = 24;

export const newWebhookSecret = () => `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;

/** The `webhook-signature` header of one attempt. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** Whether this site has a key to seal secrets with (PostgreSQL without TOTP_ENCRYPTION_KEY has none). */
export const siteKey = () => getTotpKey()?.key;

/** The secret as stored; callers check siteKey() first. */
export const sealWebhookSecret = (secret: string, key: Buffer) => sealSecret(secret, key);

/** The secret back, or undefined when this site's key does not open it (a backup from another site). */
export function openWebhookSecret(stored: string, key: Buffer | undefined = siteKey()): string | undefined {
  return opensWith(stored, key) ? openSecret(stored, key) : undefined;
}

/** Whether `stored` is a secret this site can use (restores keep only those). */
export const webhookSecretOpens = (stored: string, key: Buffer | undefined) =>
  !stored.startsWith("plain:") && opensWith(stored, key);
