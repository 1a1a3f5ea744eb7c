import { describe, expect, it } from "vitest";
import { readsStartedAfterAsking } from "./content-version.server";

/** A read whose answer the test gives: the value of `counter` when it started. */
function controlledReads() {
  let counter = 0;
  const started: Array<{ value: number; finish: () => void }> = [];
  const read = () =>
    new Promise<number>((resolve) => {
      const value = counter;
      started.push({ value, finish: () => resolve(value) });
    });
  return { read, started, bump: () => (counter += 1) };
}

describe("readsStartedAfterAsking (ADR 079)", () => {
  it("never answers a caller with a read that began before it asked; callers meanwhile share one read", async () => {
    const { read, started, bump } = controlledReads();
    const shared = readsStartedAfterAsking(read);
    const first = shared();
    expect(started).toHaveLength(1);
    // A write commits while the first read runs; three requests arrive after it.
    bump();
    const later = [shared(), shared(), shared()];
    expect(started).toHaveLength(1);
    started[0]!.finish();
    expect(await first).toBe(0);
    await Promise.resolve();
    expect(started).toHaveLength(2);
    started[1]!.finish();
    expect(await Promise.all(later)).toEqual([1, 1, 1]);
    // Nothing running: the next caller starts its own read at once.
    const again = shared();
    expect(started).toHaveLength(3);
    started[2]!.finish();
    expect(await again).toBe(1);
  });

  it("a failed read fails its callers and does not stop the next", async () => {
    let fail = true;
    const shared = readsStartedAfterAsking(() => (fail ? Promise.reject(new Error("gone")) : Promise.resolve("7")));
    await expect(shared()).rejects.toThrow("gone");
    fail = false;
    expect(await shared()).toBe("7");
  });
});
