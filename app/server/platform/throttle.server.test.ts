import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { TEST_BACKEND } from "../../../tests/support/backend";
import { accountKey, addressKey, createThrottle, reserveAll } from "./throttle.server";

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

  const throttle = (name: string, points = 5) =>
    createThrottle(database.connection, { name, points, durationSeconds: 60 });

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
    const row = await database.connection.db
      .selectFrom("rate_limits")
      .select("points")
      .where("key", "=", "refund:k")
      .executeTakeFirstOrThrow();
    expect(Number(row.points)).toBe(0);
  });

  it("a refund after the window ended does not lend the next window an attempt", async () => {
    const limited = throttle("late", 1);
    expect((await limited.reserve("k")).ok).toBe(true);
    await database.connection.db
      .updateTable("rate_limits")
      .set({ expire: Date.now() - 1 })
      .where("key", "=", "late:k")
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
});
