import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  decoyHash,
  HASHING_BUSY,
  HashingBusyError,
  hashPassword,
  hashConcurrency,
  MAX_CONCURRENT_HASHES,
  MAX_WAITING_HASHES,
  needsRehash,
  PASSWORD_PARAMS,
  verifyPassword,
} from "./passwords.server";

/** A hash as the site stored it before ADR 021 (N=2^15, r=8, p=1), made without our code. */
function legacyHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 64, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 15, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
}

describe("passwords", () => {
  it("verifies the right password and rejects a wrong one", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
  });

  it("hashes at an OWASP setting (N=2^14, r=8, p=5: 16 MiB each)", async () => {
    expect(PASSWORD_PARAMS).toEqual({ N: 16384, r: 8, p: 5 });
    expect(await hashPassword("x")).toMatch(/^scrypt\$16384\$8\$5\$/);
    // The decoy checked for unknown e-mails costs the same.
    expect(await decoyHash()).toMatch(/^scrypt\$16384\$8\$5\$/);
  });

  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same password")).not.toBe(await hashPassword("same password"));
  });

  it("rejects a malformed stored hash, or one asking for more memory than any we wrote", async () => {
    expect(await verifyPassword("x", "plain")).toBe(false);
    const [, , , , salt, key] = (await hashPassword("x")).split("$");
    expect(await verifyPassword("x", `scrypt$1048576$8$1$${salt}$${key}`)).toBe(false);
    expect(await verifyPassword("x", `scrypt$1000$8$1$${salt}$${key}`)).toBe(false);
    expect(await verifyPassword("x", `scrypt$16384$8$5$${salt}$${key}$extra`)).toBe(false);
  });

  it("still verifies a hash made with the earlier parameters, and says it needs rehashing", async () => {
    const old = legacyHash("correct horse battery");
    expect(await verifyPassword("correct horse battery", old)).toBe(true);
    expect(await verifyPassword("wrong horse battery", old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword("correct horse battery"))).toBe(false);
    expect(needsRehash("garbage")).toBe(true);
  });

  it(`runs at most ${MAX_CONCURRENT_HASHES} hashes at once; the rest wait their turn`, async () => {
    expect(hashConcurrency()).toEqual({ running: 0, waiting: 0 });
    const hashes = Array.from({ length: 6 }, (_, i) => hashPassword(`password ${i}`));
    expect(hashConcurrency()).toEqual({ running: MAX_CONCURRENT_HASHES, waiting: 6 - MAX_CONCURRENT_HASHES });
    const done = await Promise.all(hashes);
    expect(new Set(done).size).toBe(6);
    expect(hashConcurrency()).toEqual({ running: 0, waiting: 0 });
  });

  it(`lets at most ${MAX_WAITING_HASHES} wait; one more is refused at once, and the queue is whole again after`, async () => {
    const stored = await hashPassword("x");
    const admitted = MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES;
    const hashes = Array.from({ length: admitted }, (_, i) => hashPassword(`password ${i}`));
    expect(hashConcurrency()).toEqual({ running: MAX_CONCURRENT_HASHES, waiting: MAX_WAITING_HASHES });
    // Refused while every admitted hash still runs or waits: neither joined the queue.
    await expect(verifyPassword("x", stored)).rejects.toThrow(HashingBusyError);
    await expect(hashPassword("one too many")).rejects.toThrow(HASHING_BUSY);
    expect(hashConcurrency()).toEqual({ running: MAX_CONCURRENT_HASHES, waiting: MAX_WAITING_HASHES });
    expect(new Set(await Promise.all(hashes)).size).toBe(admitted);
    expect(hashConcurrency()).toEqual({ running: 0, waiting: 0 });
    expect(await verifyPassword("x", stored)).toBe(true);
  });
});
