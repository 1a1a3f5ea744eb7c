import { createHash, randomBytes } from "node:crypto";

/**
 * Secret links (invitations, ADR 038; share links of drafts, ADR 044): a
 * random token that travels in a URL once and is stored only as its SHA-256,
 * so a copy of the database opens no link.
 */

/** `bytes` random bytes, base64url (no padding): 24 bytes make 32 characters, 32 make 43. */
export function newSecretToken(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

/** What is stored of a token: its SHA-256, hex (64 characters). */
export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
