import { hkdfSync } from "node:crypto";
import type { Connection } from "../db/db.server";
import { throttleKeyMaterial } from "../identity/index.server";
import { hashThrottleKey, resolveThrottleKey } from "../platform/throttle-key.server";

/**
 * The key behind a booking's link (ADR 071): the link carries the booking's
 * id and an HMAC of it, so the database holds nothing that opens a link and
 * a job can write the link into any e-mail, days later, without keeping a
 * token. The key is derived (HKDF, a label of its own) from the site's
 * throttle key, which comes from the key material outside the database when
 * the site has some; on PostgreSQL without TOTP_ENCRYPTION_KEY it is a
 * secret in the database, and a copy of the database can then make links.
 */

const LABEL = "ojai-site booking links v1";

let connection: Connection | undefined;
let key: Promise<Buffer> | undefined;

export function initLinkKey(target: Connection): void {
  connection = target;
  key = undefined;
}

/** 128 bits of HMAC-SHA256 of the booking's id, hex. */
export async function linkMac(id: string): Promise<string> {
  if (!connection) throw new Error("booking: init() was not called at start (server/startup.ts)");
  key ??= resolveThrottleKey(connection, throttleKeyMaterial)
    .then((throttleKey) => Buffer.from(hkdfSync("sha256", throttleKey, Buffer.alloc(0), LABEL, 32)))
    .catch((error: unknown) => {
      key = undefined;
      throw error;
    });
  return hashThrottleKey(await key, "booking-link", id);
}

/** The token of a booking's link, `{id}.{mac}`: the manage page's address ends with it. */
export async function bookingToken(id: string): Promise<string> {
  return `${id}.${await linkMac(id)}`;
}
