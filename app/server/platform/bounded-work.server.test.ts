import { describe, expect, it } from "vitest";
import { BoundedWork } from "./bounded-work.server";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("BoundedWork", () => {
  it("admits at most `capacity` callers and refuses the next until one is released", () => {
    const work = new BoundedWork(3);
    const places = [work.tryAdmit(), work.tryAdmit(), work.tryAdmit()];
    expect(places.every(Boolean)).toBe(true);
    expect(work.tryAdmit()).toBeUndefined();
    places[0]!.release();
    places[0]!.release(); // a second release gives nothing back twice
    expect(work.size).toBe(2);
    expect(work.tryAdmit()).toBeDefined();
    expect(work.tryAdmit()).toBeUndefined();
  });

  it("runs one task at a time, in the order of arrival, and never more than `concurrency`", async () => {
    const work = new BoundedWork(4);
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const gates = [deferred(), deferred(), deferred()];
    const results = gates.map((gate, i) => {
      const place = work.tryAdmit()!;
      return place
        .run(async () => {
          running++;
          most = Math.max(most, running);
          order.push(`start ${i}`);
          await gate.promise;
          order.push(`end ${i}`);
          running--;
          return i;
        })
        .finally(() => place.release());
    });
    await tick();
    expect(order).toEqual(["start 0"]);
    gates[2]!.resolve(); // the last one's gate opens first: it still waits its turn
    gates[0]!.resolve();
    await tick();
    gates[1]!.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2]);
    expect(order).toEqual(["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]);
    expect(most).toBe(1);
    expect(work.active).toBe(0);
    expect(work.size).toBe(0);
  });

  it("frees the slot when a task fails", async () => {
    const work = new BoundedWork(2);
    const first = work.tryAdmit()!;
    const second = work.tryAdmit()!;
    const failing = first.run(() => Promise.reject(new Error("broken image")));
    const next = second.run(() => Promise.resolve("done"));
    await expect(failing).rejects.toThrow("broken image");
    await expect(next).resolves.toBe("done");
    expect(work.active).toBe(0);
  });

  it("refuses a capacity below its concurrency", () => {
    expect(() => new BoundedWork(0)).toThrow(RangeError);
    expect(() => new BoundedWork(1, 2)).toThrow(RangeError);
  });
});
