import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ConfigError, getConfig, isBase64Key, type Config } from "../platform/config.server";

/**
 * The key two-factor secrets are encrypted with (ADR 047). The key lives
 * outside the database, so that neither a copy of the database nor a backup
 * gives anyone a TOTP secret:
 *
 * - TOTP_ENCRYPTION_KEY, when set, on either backend;
 * - else, with SQLite, a key the site makes itself: `totp-encryption.key`
 *   beside the database file (./data by default), mode 0600, written whole
 *   and linked into place, so processes starting at once all read the one
 *   that won;
 * - else (PostgreSQL without TOTP_ENCRYPTION_KEY) no key, and two-factor
 *   sign-in cannot be turned on: app processes on several machines would
 *   each make a key of their own.
 */

export const KEY_FILE_NAME = "totp-encryption.key";
export const KEY_VARIABLE = "TOTP_ENCRYPTION_KEY";

export interface TotpKey {
  key: Buffer;
  /** Where it came from, for messages: the variable's name or the file's path. */
  source: string;
}

/** The file a SQLite site keeps its key in, or undefined for PostgreSQL. */
function keyFileFor(config: Pick<Config, "database">): string | undefined {
  return config.database.kind === "sqlite" ? path.join(path.dirname(config.database.file), KEY_FILE_NAME) : undefined;
}

function readKeyFile(file: string): Buffer {
  const text = fs.readFileSync(file, "utf8").trim();
  if (!isBase64Key(text)) {
    throw new ConfigError(
      `The two-factor key file ${file} does not hold 32 bytes in base64: restore it from where you keep it, or set ${KEY_VARIABLE}`,
    );
  }
  return Buffer.from(text, "base64");
}

/**
 * Reads the key file, or makes it: the new key is written and synced under a
 * name of this process's own, with mode 0600 from its creation, then linked
 * to the real name, which fails if another process linked its key first;
 * either way every process then reads the one file.
 */
export function readOrCreateKeyFile(file: string): Buffer {
  try {
    return readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
  const fd = fs.openSync(temporary, "wx", 0o600);
  try {
    fs.writeSync(fd, `${randomBytes(32).toString("base64")}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temporary, file);
    // The name itself must survive a crash: secrets are about to be sealed with this key.
    const directory = fs.openSync(path.dirname(file), "r");
    try {
      fs.fsyncSync(directory);
    } finally {
      fs.closeSync(directory);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return readKeyFile(file);
}

let resolved: { config: Config; key: TotpKey | undefined } | undefined;

/**
 * The key material every throttle hashes its keys with (a key derived from
 * this one, platform/throttle-key.server.ts): undefined on PostgreSQL
 * without TOTP_ENCRYPTION_KEY, where the throttles keep a secret in the
 * database instead. Any domain's throttle takes it from here.
 */
export const throttleKeyMaterial = (): Buffer | undefined => getTotpKey()?.key;

/** This process's key (made on first use with SQLite), or undefined: PostgreSQL without TOTP_ENCRYPTION_KEY. */
export function getTotpKey(config: Config = getConfig()): TotpKey | undefined {
  if (resolved?.config === config) return resolved.key;
  let key: TotpKey | undefined;
  if (config.totpEncryptionKey) key = { key: config.totpEncryptionKey, source: KEY_VARIABLE };
  else {
    const file = keyFileFor(config);
    if (file) key = { key: readOrCreateKeyFile(file), source: file };
  }
  resolved = { config, key };
  return key;
}
