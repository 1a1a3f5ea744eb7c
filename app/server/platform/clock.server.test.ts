import { describe, expect, it } from "vitest";
import { offsetOf } from "./clock.server";

/**
 * Site time's arithmetic (ADR 077): the offset from the database's clock is
 * dbTime - (sent + received) / 2 of the shortest round trip. The measuring
 * against a real PostgreSQL, with a process three seconds fast, is
 * tests/integration/one-clock.db.test.ts.
 */

describe("offsetOf", () => {
  it("takes the midpoint of the shortest round trip, whatever the sign of the skew", () => {
    // This machine 3 s fast: the database read 1000 while this clock said 4000 to 4010.
    const fast = [
      { sentMs: 4000, dbMs: 1005, receivedMs: 4010 },
      // A slower trip whose answer waited 300 ms: a worse guess, not taken.
      { sentMs: 5000, dbMs: 2001, receivedMs: 5300 },
    ];
    expect(offsetOf(fast)).toEqual({ offsetMs: -3000, roundTripMs: 10 });
    // 2 s slow, the shortest trip last.
    expect(
      offsetOf([
        { sentMs: 0, dbMs: 2100, receivedMs: 100 },
        { sentMs: 1000, dbMs: 3001, receivedMs: 1002 },
      ]),
    ).toEqual({ offsetMs: 2000, roundTripMs: 2 });
  });

  it("ignores a trip during which this clock stepped back, and answers nothing without a usable one", () => {
    expect(
      offsetOf([
        { sentMs: 9000, dbMs: 5000, receivedMs: 4000 },
        { sentMs: 4000, dbMs: 4500, receivedMs: 4020 },
      ]),
    ).toEqual({ offsetMs: 490, roundTripMs: 20 });
    expect(offsetOf([{ sentMs: 9000, dbMs: 5000, receivedMs: 4000 }])).toBeUndefined();
    expect(offsetOf([])).toBeUndefined();
  });
});
