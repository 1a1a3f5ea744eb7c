import { afterEach, describe, expect, it, vi } from "vitest";
import { onLocalEnqueue, wakeHereAt } from "./queue.server";

/**
 * A job due sooner than the next poll wakes this process's workers at its
 * time (wakeHereAt). Node's timers can fire a millisecond before Date.now()
 * shows their delay gone; a wake then would find nothing due, and the job
 * would wait for the poll, a second late (seen in the suite).
 */
describe("waking the workers at a job's time", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a timer that fires before the clock reaches the time is armed again, and wakes once it does", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    const wakes: number[] = [];
    const stop = onLocalEnqueue(() => wakes.push(Date.now()));
    try {
      const due = Date.now() + 100;
      wakeHereAt(due);
      // The wall clock falls a millisecond behind the timers' own.
      vi.setSystemTime(Date.now() - 1);
      vi.advanceTimersByTime(100);
      expect(wakes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(wakes).toEqual([due]);
    } finally {
      stop();
    }
  });

  it("wakes at once for a time already come, and leaves a time past the poll to the poll", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    const wakes: number[] = [];
    const stop = onLocalEnqueue(() => wakes.push(Date.now()));
    try {
      wakeHereAt(Date.now());
      expect(wakes).toHaveLength(1);
      wakeHereAt(Date.now() + 5_000);
      vi.advanceTimersByTime(10_000);
      expect(wakes).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
