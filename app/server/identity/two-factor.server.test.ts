import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { afterAll, describe, expect, it } from "vitest";
import { summariseUserAgent } from "~/lib/user-agent";
import { KEY_FILE_NAME, readOrCreateKeyFile } from "./two-factor-key.server";
import {
  hashRecoveryCode,
  matchingStep,
  newRecoveryCode,
  NO_KEY_MESSAGE,
  normaliseCode,
  openSecret,
  RECOVERY_CODE_LETTERS,
  sealSecret,
  SecretUnreadableError,
  TwoFactorError,
} from "./two-factor.server";

const key = Buffer.alloc(32, 1);
const secret = new Secret({ size: 20 }).base32;

describe("two-factor secrets at rest", () => {
  it("with a key: AES-256-GCM, a new IV each time, read back with the key", () => {
    const first = sealSecret(secret, key);
    const second = sealSecret(secret, key);
    expect(first).toMatch(/^aes-256-gcm:/);
    expect(first).not.toContain(secret);
    expect(first).not.toBe(second);
    expect(openSecret(first, key)).toBe(secret);
  });

  it("without a key, nothing is stored: 2FA cannot be turned on (409, saying what to set)", () => {
    expect(() => sealSecret(secret, undefined)).toThrow(TwoFactorError);
    expect(() => sealSecret(secret, undefined)).toThrow(NO_KEY_MESSAGE);
    expect(NO_KEY_MESSAGE).toContain("TOTP_ENCRYPTION_KEY");
    // An older version's plain secret is still read, until the start encrypts it.
    expect(openSecret(`plain:${secret}`, undefined)).toBe(secret);
    expect(openSecret(`plain:${secret}`, key)).toBe(secret);
  });

  it("an encrypted secret without its key, with another key, or altered: an error naming the variable", () => {
    const sealed = sealSecret(secret, key);
    expect(() => openSecret(sealed, undefined)).toThrow(/no key: set TOTP_ENCRYPTION_KEY/);
    expect(() => openSecret(sealed, Buffer.alloc(32, 2))).toThrow(SecretUnreadableError);
    const parts = sealed.split(":");
    parts[3] = Buffer.from("tampered").toString("base64");
    expect(() => openSecret(parts.join(":"), key)).toThrow(/cannot be decrypted/);
    expect(() => openSecret("rot13:abc", key)).toThrow(SecretUnreadableError);
  });
});

describe("the key file a SQLite site makes (ADR 047)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-totp-key-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is 32 random bytes in base64 (a valid TOTP_ENCRYPTION_KEY), mode 0600, made once and then read", () => {
    const file = path.join(dir, "one", KEY_FILE_NAME);
    fs.mkdirSync(path.dirname(file));
    const made = readOrCreateKeyFile(file);
    expect(made).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toBe(`${made.toString("base64")}\n`);
    expect(readOrCreateKeyFile(file)).toEqual(made);
    // Nothing else is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual([KEY_FILE_NAME]);
  });

  it("processes making it at the same moment all end up with the one key", async () => {
    const file = path.join(dir, "race", KEY_FILE_NAME);
    // readOrCreateKeyFile itself in 4 processes, each released by a line on its stdin once all have loaded it.
    const script = `
      import { readOrCreateKeyFile } from ${JSON.stringify(path.join(import.meta.dirname, "two-factor-key.server.ts"))};
      process.stdout.write("ready\\n");
      process.stdin.once("data", () => {
        process.stdout.write(readOrCreateKeyFile(process.argv[1]).toString("base64"));
        process.exit(0);
      });`;
    const children = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, file], {
        cwd: path.resolve(import.meta.dirname, "../.."),
      });
      let out = "";
      const ready = new Promise<void>((resolve) => {
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.startsWith("ready\n")) resolve();
        });
      });
      const done = new Promise<string>((resolve, reject) => {
        child.once("error", reject);
        child.once("exit", (code) =>
          code === 0 ? resolve(out.slice("ready\n".length)) : reject(new Error(`exit ${code}`)),
        );
      });
      return { child, ready, done };
    });
    await Promise.all(children.map((c) => c.ready));
    for (const { child } of children) child.stdin.write("go\n");
    const keys = await Promise.all(children.map((c) => c.done));
    expect(new Set(keys).size).toBe(1);
    expect(readOrCreateKeyFile(file).toString("base64")).toBe(keys[0]);
    expect(fs.readdirSync(path.dirname(file))).toEqual([KEY_FILE_NAME]);
  }, 30_000);

  it("a damaged key file stops the start with a message, never a new key", () => {
    const file = path.join(dir, "damaged", KEY_FILE_NAME);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, "not a key\n", { mode: 0o600 });
    expect(() => readOrCreateKeyFile(file)).toThrow(/does not hold 32 bytes in base64/);
    expect(fs.readFileSync(file, "utf8")).toBe("not a key\n");
  });
});

describe("recovery codes (ADR 047)", () => {
  it("carry 120 bits: 24 letters of Crockford's base32, shown as six groups of four", () => {
    expect(RECOVERY_CODE_LETTERS * Math.log2(32)).toBeGreaterThanOrEqual(112);
    const codes = Array.from({ length: 200 }, newRecoveryCode);
    for (const code of codes) expect(code).toMatch(/^(?:[0-9a-hjkmnp-tv-z]{4}-){5}[0-9a-hjkmnp-tv-z]{4}$/);
    expect(new Set(codes).size).toBe(codes.length);
    // Every letter of the alphabet turns up: the draw is not narrowed.
    expect(new Set(codes.join("").replace(/-/g, "")).size).toBe(32);
  });

  it("are typed in any case, with spaces or dashes, and read the same", () => {
    const code = newRecoveryCode();
    const typed = ` ${code.toUpperCase().replace(/-/g, " ")} `;
    expect(normaliseCode(typed)).toBe(code.replace(/-/g, ""));
  });

  it("are stored salted: never the code's plain SHA-256, and the same code twice is stored two ways", () => {
    const code = normaliseCode(newRecoveryCode());
    const first = hashRecoveryCode(code);
    const second = hashRecoveryCode(code);
    expect(first).toMatch(/^salted-sha256:[\da-f]{32}:[\da-f]{64}$/);
    expect(first).not.toBe(second);
    const plain = createHash("sha256").update(code).digest("hex");
    expect(first).not.toContain(plain);
    expect(first).not.toContain(code);
  });
});

describe("codes", () => {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  const now = 1_800_000_000_000 + 15_000; // the middle of a step
  const step = Math.floor(now / 30_000);

  it("a code matches its step, one step either side; not two", () => {
    expect(matchingStep(secret, totp.generate({ timestamp: now }), now)).toBe(step);
    expect(matchingStep(secret, totp.generate({ timestamp: now - 30_000 }), now)).toBe(step - 1);
    expect(matchingStep(secret, totp.generate({ timestamp: now + 30_000 }), now)).toBe(step + 1);
    expect(matchingStep(secret, totp.generate({ timestamp: now - 60_000 }), now)).toBeUndefined();
    expect(matchingStep(secret, totp.generate({ timestamp: now + 60_000 }), now)).toBeUndefined();
    expect(matchingStep(secret, "12345", now)).toBeUndefined();
    expect(matchingStep(secret, "abcdef", now)).toBeUndefined();
  });

  it("what a person types is read as the code: spaces, dashes, case and look-alikes", () => {
    expect(normaliseCode(" 123 456 ")).toBe("123456");
    expect(normaliseCode("AB1CD-EF2GH")).toBe("ab1cdef2gh");
    expect(normaliseCode("ol1I0")).toBe("01110");
  });
});

describe("summariseUserAgent", () => {
  it.each([
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"],
    ["curl/8.5.0", "curl"],
    ["something else entirely", "Unknown browser"],
    ["", "Unknown browser"],
  ])("%s: %s", (agent, summary) => {
    expect(summariseUserAgent(agent)).toBe(summary);
  });

  it("reads only the first 300 characters of a long header", () => {
    expect(summariseUserAgent(`${"x".repeat(400)} Firefox/1`)).toBe("Unknown browser");
  });
});
