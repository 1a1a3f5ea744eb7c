import { describe, expect, it } from "vitest";
import { slotDays } from "./slot-days";

/** The booking pages' slots as people read them (ADR 071): by day and time in one zone. */
describe("slotDays", () => {
  const slots = [
    { start: "2026-12-01T16:00:00.000Z", end: "2026-12-01T17:00:00.000Z" },
    { start: "2026-12-01T23:00:00.000Z", end: "2026-12-02T00:00:00.000Z" },
    { start: "2026-12-02T16:00:00.000Z", end: "2026-12-02T17:00:00.000Z" },
  ];

  it("groups the slots by their day in the owner's zone", () => {
    const days = slotDays(slots, "America/Los_Angeles");
    expect(days.map((day) => [day.date, day.label, day.times.map((time) => time.label)])).toEqual([
      ["2026-12-01", "Tuesday, December 1", ["8:00 AM", "3:00 PM"]],
      ["2026-12-02", "Wednesday, December 2", ["8:00 AM"]],
    ]);
  });

  it("regroups the same slots in another zone, where a late call falls on the next day", () => {
    const days = slotDays(slots, "Europe/Berlin");
    expect(days.map((day) => [day.date, day.times.map((time) => [time.start, time.label])])).toEqual([
      ["2026-12-01", [["2026-12-01T16:00:00.000Z", "5:00 PM"]]],
      [
        "2026-12-02",
        [
          ["2026-12-01T23:00:00.000Z", "12:00 AM"],
          ["2026-12-02T16:00:00.000Z", "5:00 PM"],
        ],
      ],
    ]);
  });
});
