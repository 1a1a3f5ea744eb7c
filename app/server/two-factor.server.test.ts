import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { summariseUserAgent } from "~/lib/user-agent";
import { matchingStep, normaliseCode, openSecret, sealSecret, SecretUnreadableError } from "./two-factor.server";

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

  it("without a key: marked plain", () => {
    expect(sealSecret(secret, undefined)).toBe(`plain:${secret}`);
    expect(openSecret(`plain:${secret}`, undefined)).toBe(secret);
    // A plain secret stays readable once a key is set.
    expect(openSecret(`plain:${secret}`, key)).toBe(secret);
  });

  it("an encrypted secret without its key, with another key, or altered: an error naming the variable", () => {
    const sealed = sealSecret(secret, key);
    expect(() => openSecret(sealed, undefined)).toThrow(/TOTP_ENCRYPTION_KEY is not set/);
    expect(() => openSecret(sealed, Buffer.alloc(32, 2))).toThrow(SecretUnreadableError);
    const parts = sealed.split(":");
    parts[3] = Buffer.from("tampered").toString("base64");
    expect(() => openSecret(parts.join(":"), key)).toThrow(/cannot be decrypted/);
    expect(() => openSecret("rot13:abc", key)).toThrow(SecretUnreadableError);
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
