import { hkdfSync, timingSafeEqual } from "node:crypto";
import type { Connection } from "../db/db.server";
import { hashThrottleKey, resolveThrottleKey } from "../platform/throttle-key.server";
import { throttleKeyMaterial } from "./two-factor-key.server";

/**
 * Links that open one record without a password (a booking's page, ADR 071;
 * a subscriber's confirm and unsubscribe links, ADR 072): the link carries
 * the record's id and an HMAC of it, so the database holds nothing that
 * opens a link, and a job can write the link into an e-mail days later
 * without keeping a token. Each kind of link has a key of its own, derived
 * (HKDF, the kind's label) from the site's throttle key, which comes from
 * the key material outside the database when the site has some; on
 * PostgreSQL without TOTP_ENCRYPTION_KEY it is a secret in the database, and
 * a copy of the database can then make links.
 */

export interface LinkSigner {
  /** `{id}.{mac}`: what the link's address ends with. */
  token(id: string): Promise<string>;
  /** The id a token was made for, or undefined for anything else (a bounded, constant-time check). */
  idOf(token: string): Promise<string | undefined>;
}

/** The longest token looked at: a 36-character id, a dot and 32 hex digits, with room. */
const MAX_TOKEN_LENGTH = 100;

/**
 * A signer for one kind of link: `label` derives its key and `name` goes
 * into each MAC; neither may ever change (it would void the links sent).
 */
export function createLinkSigner(
  connection: Connection,
  { label, name, isId }: { label: string; name: string; isId: (id: string) => boolean },
): LinkSigner {
  let key: Promise<Buffer> | undefined;
  const mac = async (id: string) => {
    key ??= resolveThrottleKey(connection, throttleKeyMaterial)
      .then((throttleKey) => Buffer.from(hkdfSync("sha256", throttleKey, Buffer.alloc(0), label, 32)))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    // 128 bits of HMAC-SHA256 of the id, hex.
    return hashThrottleKey(await key, name, id);
  };
  return {
    token: async (id) => `${id}.${await mac(id)}`,
    async idOf(token) {
      if (token.length > MAX_TOKEN_LENGTH) return undefined;
      const dot = token.indexOf(".");
      const id = token.slice(0, dot);
      if (dot < 0 || !isId(id)) return undefined;
      const expected = Buffer.from(await mac(id));
      const given = Buffer.from(token.slice(dot + 1));
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
    },
  };
}
