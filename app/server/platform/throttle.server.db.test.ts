import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anotherConnection, freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { TEST_BACKEND } from "../../../tests/support/backend";
import type { Connection } from "../db/db.server";
import { accountKey, addressKey, createThrottle, pruneExpired, reserveAll, type Throttle } from "./throttle.server";
import { databaseThrottleKey } from "./throttle-key.server";

/** The site's key outside the database, as the two-factor key gives it. */
const SITE_KEY = randomBytes(32);

describe("addressKey", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey(" 203.0.113.7 ")).toBe("203.0.113.7");
  });

  it("counts an IPv4-mapped IPv6 address as the IPv4 address, in any spelling", () => {
    expect(addressKey("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(addressKey("::FFFF:1.2.3.4")).toBe("1.2.3.4");
    expect(addressKey("0:0:0:0:0:ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(addressKey("::ffff:0102:0304")).toBe("1.2.3.4");
  });

  it("keys an IPv6 address by its /64, however it is written", () => {
    const key = addressKey("2001:db8:85a3:42::1");
    expect(key).toBe("2001:db8:85a3:42::/64");
    for (const sameNetwork of [
      "2001:db8:85a3:42:ffff:ffff:ffff:ffff",
      "2001:0DB8:85A3:0042:0000:0000:0000:0001",
      "2001:db8:85a3:42:1:2:3:4",
      "2001:db8:85a3:42::1%eth0",
      "2001:db8:85a3:42::10.0.0.1",
    ]) {
      expect(addressKey(sameNetwork), sameNetwork).toBe(key);
    }
    expect(addressKey("2001:db8:85a3:43::1")).not.toBe(key);
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    // Not mapped: ::ffff:0:0/96 only, not a neighbour of it.
    expect(addressKey("::fffe:1.2.3.4")).toBe("0:0:0:0::/64");
  });

  it("hashes anything that is not an address into a short key", () => {
    const odd = addressKey("x".repeat(5000));
    expect(odd).toMatch(/^other:[0-9a-f]{40}$/);
    expect(addressKey("unknown")).toBe(addressKey("unknown"));
    expect(addressKey("unknown")).not.toBe(addressKey("unknown2"));
  });
});

describe("accountKey", () => {
  it("keeps a real e-mail address and hashes a name too long to be one", () => {
    expect(accountKey("owner@example.com")).toBe("owner@example.com");
    const long = accountKey(`${"a".repeat(400)}@example.com`);
    expect(long).toMatch(/^long:[0-9a-f]{40}$/);
    expect(long.length).toBeLessThan(100);
  });
});

describe(`throttle reservations on ${TEST_BACKEND}`, () => {
  let database: FreshDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database?.cleanup());

  const throttle = (name: string, points = 5, connection: Connection = database.connection) =>
    createThrottle(connection, { name, points, durationSeconds: 60, keyMaterial: () => SITE_KEY });
  const storedKeys = async () =>
    (await database.connection.db.selectFrom("rate_limits").select("key").execute()).map((row) => row.key);
  const rowOf = async (limited: Throttle, key: string) =>
    database.connection.db
      .selectFrom("rate_limits")
      .selectAll()
      .where("key", "=", await limited.storedKey(key))
      .executeTakeFirst();

  it("lets exactly `points` of many parallel reservations through", async () => {
    const limited = throttle("parallel");
    const results = await Promise.all(Array.from({ length: 30 }, () => limited.reserve("k")));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    for (const refused of results.filter((r) => !r.ok)) {
      expect(refused.retryAfterMs).toBeGreaterThan(50_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    }
    expect(await limited.retryAfterMs("k")).toBeGreaterThan(0);
    expect(await limited.retryAfterMs("other")).toBe(0);
  });

  it("a refund gives one attempt back; a reset gives all of them", async () => {
    const limited = throttle("refund", 2);
    expect((await limited.reserve("k")).ok).toBe(true);
    expect((await limited.reserve("k")).ok).toBe(true);
    expect((await limited.reserve("k")).ok).toBe(false);
    // The refused attempt counted too (points is 3 now): one refund is not enough ...
    await limited.refund("k");
    expect((await limited.reserve("k")).ok).toBe(false);
    await limited.reset("k");
    expect(await limited.retryAfterMs("k")).toBe(0);
    expect((await limited.reserve("k")).ok).toBe(true);
    await limited.refund("k");
    await limited.refund("k"); // never below zero
    expect(Number((await rowOf(limited, "k"))!.points)).toBe(0);
  });

  it("a refund after the window ended does not lend the next window an attempt", async () => {
    const limited = throttle("late", 1);
    expect((await limited.reserve("k")).ok).toBe(true);
    await database.connection.db
      .updateTable("rate_limits")
      .set({ expire: Date.now() - 1 })
      .where("key", "=", await limited.storedKey("k"))
      .execute();
    await limited.refund("k");
    expect((await limited.reserve("k")).ok).toBe(true); // a new window
    expect((await limited.reserve("k")).ok).toBe(false);
  });

  it("reserveAll takes an attempt from every key or from none", async () => {
    const first = throttle("all-a", 1);
    const second = throttle("all-b", 1);
    expect((await first.reserve("full")).ok).toBe(true);
    const refused = await reserveAll([
      [first, "full"],
      [second, "free"],
    ]);
    expect(refused.ok).toBe(false);
    // "free" got its attempt back: it still has its one.
    expect((await second.reserve("free")).ok).toBe(true);
    expect((await second.reserve("free")).ok).toBe(false);
  });

  it("reserveAll stops at the first full key: the keys after it get no row", async () => {
    const address = throttle("stop-address", 1);
    const account = throttle("stop-account", 1);
    expect(
      (
        await reserveAll([
          [address, "198.51.100.1"],
          [account, "a@example.com"],
        ])
      ).ok,
    ).toBe(true);
    for (let i = 0; i < 20; i++) {
      expect(
        (
          await reserveAll([
            [address, "198.51.100.1"],
            [account, `new-${i}@example.com`],
          ])
        ).ok,
      ).toBe(false);
      expect(await rowOf(account, `new-${i}@example.com`)).toBeUndefined();
    }
    // A refusal on the second key gives the first its attempt back.
    const other = throttle("stop-other", 1);
    expect(
      (
        await reserveAll([
          [other, "198.51.100.2"],
          [account, "a@example.com"],
        ])
      ).ok,
    ).toBe(false);
    expect(Number((await rowOf(other, "198.51.100.2"))!.points)).toBe(0);
  });

  it("stores a keyed hash of each key, never the address or the e-mail", async () => {
    const address = "203.0.113.77";
    const email = "someone.private@example.com";
    const signIn = throttle("hash-sign-in");
    const contact = throttle("hash-contact");
    await reserveAll([
      [signIn, addressKey(address)],
      [signIn, accountKey(email)],
    ]);
    await contact.reserve(addressKey(address));
    const keys = await storedKeys();
    for (const key of keys) {
      expect(key).not.toContain(address);
      expect(key).not.toContain(email);
      expect(key).not.toContain("example.com");
      expect(key).toMatch(/^[a-z0-9-]+:[0-9a-f]{32}$/);
    }
    // One address in two throttles: two hashes that cannot be matched with each other.
    expect((await contact.storedKey(address)).split(":")[1]).not.toBe((await signIn.storedKey(address)).split(":")[1]);
    // Another process with the same key material finds the same row; another key material does not.
    const again = createThrottle(database.connection, {
      name: "hash-contact",
      points: 5,
      durationSeconds: 60,
      keyMaterial: () => Buffer.from(SITE_KEY),
    });
    expect(await again.storedKey(address)).toBe(await contact.storedKey(address));
    const otherSite = createThrottle(database.connection, {
      name: "hash-contact",
      points: 5,
      durationSeconds: 60,
      keyMaterial: () => randomBytes(32),
    });
    expect(await otherSite.storedKey(address)).not.toBe(await contact.storedKey(address));
  });

  it("without key material outside the database, keys with one secret the database keeps, made once by whichever process is first", async () => {
    const others = Array.from({ length: 4 }, () => anotherConnection(database));
    try {
      const secrets = await Promise.all(others.map((connection) => databaseThrottleKey(connection)));
      expect(new Set(secrets.map((secret) => secret.toString("hex"))).size).toBe(1);
      expect(secrets[0]).toHaveLength(32);
      expect(await database.connection.db.selectFrom("throttle_secrets").selectAll().execute()).toHaveLength(1);
      const keyless = (connection: Connection) =>
        createThrottle(connection, { name: "keyless", points: 2, durationSeconds: 60, keyMaterial: () => undefined });
      // Two processes count the same address on one row.
      expect((await keyless(others[0]!).reserve("203.0.113.9")).ok).toBe(true);
      expect((await keyless(others[1]!).reserve("203.0.113.9")).ok).toBe(true);
      expect((await keyless(others[2]!).reserve("203.0.113.9")).ok).toBe(false);
      const stored = await keyless(others[3]!).storedKey("203.0.113.9");
      expect(stored).toMatch(/^keyless:[0-9a-f]{32}$/);
      expect(await keyless(database.connection).storedKey("203.0.113.9")).toBe(stored);
    } finally {
      await Promise.all(others.map((connection) => connection.db.destroy()));
    }
  });

  it("deletes the rows whose window has ended, from the reservation path of each process", async () => {
    const limited = throttle("prune");
    for (const key of ["old-1", "old-2", "live"]) await limited.reserve(key);
    const keyOf = (key: string) => limited.storedKey(key);
    await database.connection.db
      .updateTable("rate_limits")
      .set({ expire: Date.now() - 1000 })
      .where("key", "in", [await keyOf("old-1"), await keyOf("old-2")])
      .execute();
    // This process pruned at its first reservation, less than a minute ago: the rows stay until the next minute.
    await limited.reserve("live");
    expect(await rowOf(limited, "old-1")).toBeDefined();
    // Another process prunes at its first reservation.
    const other = anotherConnection(database);
    try {
      expect((await throttle("prune", 5, other).reserve("new")).ok).toBe(true);
    } finally {
      await other.db.destroy();
    }
    expect(await rowOf(limited, "old-1")).toBeUndefined();
    expect(await rowOf(limited, "old-2")).toBeUndefined();
    expect(Number((await rowOf(limited, "live"))!.points)).toBe(2);
    expect(await pruneExpired(database.connection)).toBe(0);
  });

  it("a flood of sign-ins with new e-mails from one address adds a fixed number of rows", async () => {
    const before = (await storedKeys()).length;
    const account = throttle("flood-account");
    const address = throttle("flood-address");
    const flood = async (from: string, count: number) => {
      for (let i = 0; i < count; i++) {
        await reserveAll([
          [address, addressKey(from)],
          [account, accountKey(`flood-${from}-${i}@example.com`)],
        ]);
      }
    };
    await flood("2001:db8:77:1::1", 500);
    // Rotating through one /64 is one address.
    for (let i = 0; i < 100; i++) await flood(`2001:db8:77:1:${i.toString(16)}::${i + 2}`, 2);
    // One address row and one account row for each of the 5 attempts it was let through.
    expect((await storedKeys()).length - before).toBe(6);
  });
});
