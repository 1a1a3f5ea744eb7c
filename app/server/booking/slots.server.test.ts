import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Availability, parseAvailability, type WeeklyHours } from "~/lib/booking";
import { type Busy, computeSlots, offeredSlot, parseSlotsQuery, type Slot } from "./slots.server";

/**
 * Free slots (ADR 071) across daylight-saving changes, and the owner's
 * availability as a PUT sends it. computeSlots works with Temporal; every
 * check here reads the owner's clock with Intl instead, an independent
 * reckoning, on the weeks the clocks change in Los Angeles (2026-03-08,
 * 2026-11-01) and Berlin (2026-03-29, 2026-10-25), with random weekly hours
 * (biased to the hours the clocks change in), call lengths, buffers, notice,
 * horizon, days off and busy times: every call is exactly its length in
 * real time, inside the hours the owner set for its weekday, and only where
 * the rules allow; a visitor in any zone sees the same instants. A slot an
 * hour off, or two slots at once, is a call nobody expects.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// ---------------------------------------------------------------------------
// The owner's clock, read with Intl (not Temporal, which the code uses).

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

interface Wall {
  /** YYYY-MM-DD in the zone. */
  date: string;
  /** Minutes since the zone's midnight as its clock shows them. */
  minutes: number;
  /** The zone's offset from UTC at that instant, in minutes. */
  offset: number;
}

function wall(ms: number, timeZone: string): Wall {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const [year, month, day, hour, minute, second] = [
    parts.year,
    parts.month,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  ].map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: hour * 60 + minute,
    offset: Math.round((asUtc - (ms - (ms % 1000))) / MINUTE),
  };
}

/** The instants at which the zone's clock shows `minutes` on `date` (none in a gap, two in a repeated hour). */
function shownAt(date: string, minutes: number, timeZone: string): { instants: number[]; naive: number } {
  const naive = Date.parse(`${date}T00:00:00Z`) + minutes * MINUTE;
  const offsets = new Set([wall(naive - DAY, timeZone).offset, wall(naive + DAY, timeZone).offset]);
  const instants = [...offsets]
    .map((offset) => naive - offset * MINUTE)
    .filter((ms) => {
      const seen = wall(ms, timeZone);
      return seen.date === date && seen.minutes === minutes;
    })
    .sort((a, b) => a - b);
  return { instants, naive };
}

/**
 * The first moment the owner's clock shows `minutes` on `date` or a later
 * time: in a repeated hour its first pass; for a time the clocks skip, the
 * moment they skip it. A range's end is this moment: nothing after it.
 */
function firstShown(date: string, minutes: number, timeZone: string): number {
  const key = `${timeZone} ${date} ${minutes}`;
  let found = firstShownCache.get(key);
  if (found === undefined) firstShownCache.set(key, (found = reckonFirstShown(date, minutes, timeZone)));
  return found;
}
const firstShownCache = new Map<string, number>();

function reckonFirstShown(date: string, minutes: number, timeZone: string): number {
  const { instants, naive } = shownAt(date, minutes, timeZone);
  if (instants.length > 0) return instants[0]!;
  // A gap: the first whole minute at which the clock reads past `naive`.
  const before = wall(naive - DAY, timeZone).offset;
  const after = wall(naive + DAY, timeZone).offset;
  let low = naive - Math.max(before, after) * MINUTE;
  let high = naive - Math.min(before, after) * MINUTE;
  while (high - low > MINUTE) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
    const seen = wall(middle, timeZone);
    if (middle + seen.offset * MINUTE >= naive) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * Where a range starts: its time on the owner's clock (the first pass in a
 * repeated hour); a time the clocks skip moves forward as a clock would, by
 * the length of the gap (RFC 5545's reading, and the code's documented one).
 */
function rangeStart(date: string, minutes: number, timeZone: string): number {
  const { instants, naive } = shownAt(date, minutes, timeZone);
  return instants.length > 0 ? instants[0]! : naive - wall(naive - DAY, timeZone).offset * MINUTE;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
const weekday = (date: string) => ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
const datesFrom = (from: string, days: number) =>
  Array.from({ length: days }, (_, i) =>
    new Date(Date.parse(`${from}T12:00:00Z`) + i * DAY).toISOString().slice(0, 10),
  );

// ---------------------------------------------------------------------------
// The weeks and the random availabilities.

const WEEKS = [
  { timeZone: "America/Los_Angeles", change: "2026-03-08" },
  { timeZone: "America/Los_Angeles", change: "2026-11-01" },
  { timeZone: "Europe/Berlin", change: "2026-03-29" },
  { timeZone: "Europe/Berlin", change: "2026-10-25" },
] as const;

/** A week's dates: three days either side of the change. */
const weekOf = (change: string) =>
  datesFrom(new Date(Date.parse(`${change}T12:00:00Z`) - 3 * DAY).toISOString().slice(0, 10), 7);

/** A time of day, often in the hours the clocks change in (01:00 to 04:00). */
const timeOfDay = fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 50, max: 250 }));

/** One weekday's ranges: sorted points paired up, so they never overlap and may touch. */
const dayRanges = (day: number) =>
  fc.array(timeOfDay, { maxLength: 6 }).map((points) => {
    const sorted = [...points].sort((a, b) => a - b);
    const ranges: WeeklyHours[] = [];
    for (let i = 0; i + 1 < sorted.length && ranges.length < 3; i += 2)
      if (sorted[i]! < sorted[i + 1]!) ranges.push({ day, start: hhmm(sorted[i]!), end: hhmm(sorted[i + 1]!) });
    return ranges;
  });

const scenario = fc
  .record({
    week: fc.constantFrom(...WEEKS),
    weekly: fc.tuple(...[1, 2, 3, 4, 5, 6, 7].map(dayRanges)).map((days) => days.flat()),
    slotMinutes: fc.oneof(fc.constantFrom(15, 20, 30, 45, 60, 90), fc.integer({ min: 10, max: 240 })),
    bufferMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 120 })),
    minNoticeHours: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 96 })),
    horizonDays: fc.integer({ min: 1, max: 14 }),
    daysOff: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
    /** Minutes from three days before the week. */
    nowMinutes: fc.integer({ min: 0, max: 5 * 1440 }),
    busy: fc.array(
      fc.record({ at: fc.integer({ min: 0, max: 7 * 1440 }), minutes: fc.integer({ min: 1, max: 240 }) }),
      {
        maxLength: 6,
      },
    ),
  })
  .map(({ week, daysOff, nowMinutes, busy, ...rest }) => {
    const dates = weekOf(week.change);
    const availability: Availability = {
      enabled: true,
      timeZone: week.timeZone,
      ...rest,
      daysOff: [...new Set(daysOff.map((i) => dates[i]!))].sort(),
    };
    const weekStart = Date.parse(`${dates[0]}T00:00:00Z`) - 12 * 60 * MINUTE;
    return {
      availability,
      dates,
      change: week.change,
      range: { from: dates[0]!, to: dates[6]! },
      now: new Date(weekStart - 3 * DAY + nowMinutes * MINUTE),
      busy: busy.map(({ at, minutes }) => ({
        start: new Date(weekStart + at * MINUTE).toISOString(),
        end: new Date(weekStart + (at + minutes) * MINUTE).toISOString(),
      })),
    };
  });

const RUNS = { numRuns: 200 };

/** The slots the owner's hours give, reckoned with the Intl clock above: the oracle. */
function expectedSlots(availability: Availability, dates: string[], now: Date): Slot[] {
  const { timeZone, slotMinutes, bufferMinutes } = availability;
  const earliest = now.getTime() + availability.minNoticeHours * 60 * MINUTE;
  const latest = now.getTime() + availability.horizonDays * DAY;
  const slots: Slot[] = [];
  for (const date of dates) {
    if (availability.daysOff.includes(date)) continue;
    for (const hours of availability.weekly.filter((h) => h.day === weekday(date))) {
      const end = firstShown(date, minutesOf(hours.end), timeZone);
      for (
        let start = rangeStart(date, minutesOf(hours.start), timeZone);
        start + slotMinutes * MINUTE <= end;
        start += (slotMinutes + bufferMinutes) * MINUTE
      )
        if (start >= earliest && start <= latest)
          slots.push({
            start: new Date(start).toISOString(),
            end: new Date(start + slotMinutes * MINUTE).toISOString(),
          });
    }
  }
  return slots.sort((a, b) => a.start.localeCompare(b.start));
}

describe("computeSlots across daylight-saving weeks (property tests)", () => {
  it("the generated availabilities are ones a PUT accepts", () => {
    fc.assert(
      fc.property(scenario, ({ availability }) => {
        const parsed = parseAvailability(availability, availability);
        expect(parsed.ok && parsed.value.weekly.length).toBe(availability.weekly.length);
      }),
      { numRuns: 100 },
    );
  });

  // Each property collects what is wrong with a run's slots and expects
  // none: one assertion per run rather than several per slot.
  it("every slot is exactly slotMinutes long in real time; slots are sorted and never overlap", () => {
    fc.assert(
      fc.property(scenario, ({ availability, range, now }) => {
        const slots = computeSlots(availability, range, now);
        const wrong: string[] = [];
        slots.forEach((slot, i) => {
          const start = Date.parse(slot.start);
          if (start % MINUTE !== 0 || new Date(start).toISOString() !== slot.start) wrong.push(`start ${slot.start}`);
          if (Date.parse(slot.end) - start !== availability.slotMinutes * MINUTE) wrong.push(`length ${slot.start}`);
          if (i > 0 && start < Date.parse(slots[i - 1]!.end))
            wrong.push(`overlap ${slots[i - 1]!.start} ${slot.start}`);
        });
        expect(wrong).toEqual([]);
      }),
      RUNS,
    );
  });

  it("keeps the buffer after each slot, except before the first slot of another range", () => {
    fc.assert(
      fc.property(scenario, ({ availability, range, now, dates }) => {
        const slots = computeSlots(availability, range, now);
        // Ranges that touch offer their slots as alternatives: once one is
        // booked its neighbour is busy (the busy-time property below).
        const rangeStarts = new Set(
          dates.flatMap((date) =>
            availability.weekly
              .filter((h) => h.day === weekday(date))
              .map((h) => rangeStart(date, minutesOf(h.start), availability.timeZone)),
          ),
        );
        const wrong = slots.filter(
          (slot, i) =>
            i > 0 &&
            !rangeStarts.has(Date.parse(slot.start)) &&
            Date.parse(slot.start) - Date.parse(slots[i - 1]!.end) < availability.bufferMinutes * MINUTE,
        );
        expect(wrong).toEqual([]);
      }),
      RUNS,
    );
  });

  it("each slot lies, on the owner's clock, inside a range set for its weekday, on a date asked for and not off", () => {
    fc.assert(
      fc.property(scenario, ({ availability, range, now, change }) => {
        const { timeZone } = availability;
        const wrong: string[] = [];
        for (const slot of computeSlots(availability, range, now)) {
          const start = Date.parse(slot.start);
          const end = Date.parse(slot.end);
          const seenStart = wall(start, timeZone);
          const seenEnd = wall(end, timeZone);
          const { date } = seenStart;
          if (seenEnd.date !== date) wrong.push(`${slot.start} ends on another day`);
          if (date < range.from || date > range.to) wrong.push(`${slot.start} outside the dates asked for`);
          if (availability.daysOff.includes(date)) wrong.push(`${slot.start} on a day off`);
          const ranges = availability.weekly.filter((h) => h.day === weekday(date));
          // From the first moment the owner's clock shows the range's start
          // (or later: a skipped time) to the first it shows its end. On a
          // day the clocks do not change, plainly the minutes the clock shows.
          if (
            !ranges.some(
              (h) =>
                start >= firstShown(date, minutesOf(h.start), timeZone) &&
                end <= firstShown(date, minutesOf(h.end), timeZone),
            )
          )
            wrong.push(`${slot.start}-${slot.end} outside ${JSON.stringify(ranges)}`);
          if (
            date !== change &&
            !ranges.some((h) => seenStart.minutes >= minutesOf(h.start) && seenEnd.minutes <= minutesOf(h.end))
          )
            wrong.push(`${slot.start}-${slot.end} outside ${JSON.stringify(ranges)} on the clock`);
        }
        expect(wrong).toEqual([]);
      }),
      RUNS,
    );
  });

  it("none starts before now + notice or after now + horizon", () => {
    fc.assert(
      fc.property(scenario, ({ availability, range, now }) => {
        const earliest = now.getTime() + availability.minNoticeHours * 3_600_000;
        const latest = now.getTime() + availability.horizonDays * DAY;
        const wrong = computeSlots(availability, range, now).filter(
          (slot) => Date.parse(slot.start) < earliest || Date.parse(slot.start) > latest,
        );
        expect(wrong).toEqual([]);
      }),
      RUNS,
    );
  });

  it("gives exactly the slots the hours give by an independent reckoning of the owner's clock", () => {
    fc.assert(
      fc.property(scenario, ({ availability, range, now, dates }) => {
        expect(computeSlots(availability, range, now)).toEqual(expectedSlots(availability, dates, now));
      }),
      RUNS,
    );
  });

  it("busy times block exactly the slots within the buffer of them", () => {
    fc.assert(
      fc.property(scenario, ({ availability, range, now, busy }) => {
        const bufferMs = availability.bufferMinutes * MINUTE;
        const free = computeSlots(availability, range, now);
        const blocked = (slot: Slot, b: Busy) =>
          Date.parse(slot.start) < Date.parse(b.end) + bufferMs &&
          Date.parse(b.start) < Date.parse(slot.end) + bufferMs;
        expect(computeSlots(availability, range, now, busy)).toEqual(
          free.filter((slot) => !busy.some((b) => blocked(slot, b))),
        );
        // A booked slot of the list blocks itself, and its neighbours only within the buffer.
        if (free.length > 0) {
          const booked = free[Math.floor(free.length / 2)]!;
          const left = computeSlots(availability, range, now, [booked]);
          expect(left).not.toContainEqual(booked);
          expect(left).toEqual(free.filter((slot) => !blocked(slot, booked)));
        }
      }),
      RUNS,
    );
  });

  it("a visitor in any zone reads the same instants back", () => {
    const visitorZones = [
      "Asia/Kolkata",
      "Pacific/Auckland",
      "America/New_York",
      "UTC",
      "Asia/Kathmandu",
      "America/St_Johns",
    ];
    fc.assert(
      fc.property(scenario, fc.constantFrom(...visitorZones), ({ availability, range, now }, zone) => {
        const wrong: string[] = [];
        for (const slot of computeSlots(availability, range, now)) {
          for (const iso of [slot.start, slot.end]) {
            const seen = wall(Date.parse(iso), zone);
            const sign = seen.offset < 0 ? "-" : "+";
            const local = `${seen.date}T${hhmm(seen.minutes)}:00${sign}${hhmm(Math.abs(seen.offset))}`;
            if (new Date(local).toISOString() !== iso) wrong.push(`${iso} in ${zone} reads ${local}`);
          }
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});

describe("computeSlots: exact examples", () => {
  const base: Availability = {
    enabled: true,
    timeZone: "America/Los_Angeles",
    slotMinutes: 60,
    bufferMinutes: 0,
    minNoticeHours: 0,
    horizonDays: 365,
    weekly: [{ day: 1, start: "09:00", end: "10:00" }],
    daysOff: [],
  };
  const now = new Date("2026-01-01T00:00:00Z");
  const starts = (availability: Availability, from: string, to = from) =>
    computeSlots(availability, { from, to }, now).map((slot) => slot.start);

  it("Los Angeles, Monday 9:00-10:00: 17:00Z in winter, 16:00Z the week after spring-forward", () => {
    expect(starts(base, "2026-03-02")).toEqual(["2026-03-02T17:00:00.000Z"]);
    expect(starts(base, "2026-03-09")).toEqual(["2026-03-09T16:00:00.000Z"]);
    expect(starts(base, "2026-11-02")).toEqual(["2026-11-02T17:00:00.000Z"]);
  });

  it("Berlin, Monday 9:00: 08:00Z before 2026-03-29, 07:00Z after, 08:00Z again after 2026-10-25", () => {
    const berlin = { ...base, timeZone: "Europe/Berlin" };
    expect(starts(berlin, "2026-03-23")).toEqual(["2026-03-23T08:00:00.000Z"]);
    expect(starts(berlin, "2026-03-30")).toEqual(["2026-03-30T07:00:00.000Z"]);
    expect(starts(berlin, "2026-10-26")).toEqual(["2026-10-26T08:00:00.000Z"]);
  });

  it("the fall-back night's repeated hour is offered twice, each call an hour of real time", () => {
    const night = { ...base, weekly: [{ day: 7, start: "00:00", end: "04:00" }] };
    expect(computeSlots(night, { from: "2026-11-01", to: "2026-11-01" }, now)).toEqual(
      ["07", "08", "09", "10", "11"].map((hour) => ({
        start: `2026-11-01T${hour}:00:00.000Z`,
        end: `2026-11-01T${String(Number(hour) + 1).padStart(2, "0")}:00:00.000Z`,
      })),
    );
  });

  it("spring-forward: a range starting in the skipped hour moves forward; one ending in it ends when the clocks skip", () => {
    const sunday = (weekly: WeeklyHours[]) =>
      computeSlots({ ...base, slotMinutes: 30, weekly }, { from: "2026-03-08", to: "2026-03-08" }, now).map(
        (slot) => slot.start,
      );
    // 02:30 is not on the clock that night: the range starts at 03:30 PDT.
    expect(sunday([{ day: 7, start: "02:30", end: "04:00" }])).toEqual(["2026-03-08T10:30:00.000Z"]);
    // Until 02:30: nothing after 01:59 PST, when the clock jumps to 03:00,
    // so no call from 03:00 to 03:30, the next range's, offered twice.
    expect(sunday([{ day: 7, start: "01:00", end: "02:30" }])).toEqual([
      "2026-03-08T09:00:00.000Z",
      "2026-03-08T09:30:00.000Z",
    ]);
    // Until 02:00, the very minute the clock skips (found by the property below, seed -881534082).
    expect(sunday([{ day: 7, start: "01:00", end: "02:00" }])).toEqual([
      "2026-03-08T09:00:00.000Z",
      "2026-03-08T09:30:00.000Z",
    ]);
    expect(
      sunday([
        { day: 7, start: "01:00", end: "02:30" },
        { day: 7, start: "03:00", end: "04:00" },
      ]),
    ).toEqual([
      "2026-03-08T09:00:00.000Z",
      "2026-03-08T09:30:00.000Z",
      "2026-03-08T10:00:00.000Z",
      "2026-03-08T10:30:00.000Z",
    ]);
  });

  it("a booked slot blocks itself and the slots within the buffer, not the next one on the grid", () => {
    const day = { ...base, slotMinutes: 30, bufferMinutes: 15, weekly: [{ day: 1, start: "09:00", end: "11:00" }] };
    const monday = { from: "2026-03-09", to: "2026-03-09" };
    const times = (busy: Busy[] = []) => computeSlots(day, monday, now, busy).map((s) => s.start.slice(11, 16));
    expect(times()).toEqual(["16:00", "16:45", "17:30"]);
    const [first] = computeSlots(day, monday, now);
    expect(times([first!])).toEqual(["16:45", "17:30"]);
    // A call of another grid (the owner changed the length since) that ends
    // 16:35 blocks 16:00 and 16:45 (10 minutes < 15), not 17:30.
    expect(times([{ start: "2026-03-09T16:05:00.000Z", end: "2026-03-09T16:35:00.000Z" }])).toEqual(["17:30"]);
  });

  it("nothing on a day off, nothing while disabled or without hours; notice and horizon cut by the start", () => {
    expect(starts({ ...base, daysOff: ["2026-03-09"] }, "2026-03-02", "2026-03-16")).toEqual([
      "2026-03-02T17:00:00.000Z",
      "2026-03-16T16:00:00.000Z",
    ]);
    expect(starts({ ...base, enabled: false }, "2026-03-02", "2026-03-16")).toEqual([]);
    expect(starts({ ...base, weekly: [] }, "2026-03-02", "2026-03-16")).toEqual([]);
    const at = new Date("2026-03-09T04:00:00Z");
    const window = { from: "2026-03-09", to: "2026-03-16" };
    expect(computeSlots({ ...base, minNoticeHours: 12 }, window, at).map((s) => s.start)).toEqual([
      "2026-03-09T16:00:00.000Z",
      "2026-03-16T16:00:00.000Z",
    ]);
    expect(computeSlots({ ...base, minNoticeHours: 13 }, window, at).map((s) => s.start)).toEqual([
      "2026-03-16T16:00:00.000Z",
    ]);
    expect(computeSlots({ ...base, horizonDays: 7 }, window, at).map((s) => s.start)).toEqual([
      "2026-03-09T16:00:00.000Z",
    ]);
  });

  it("offeredSlot finds a slot by its instant, whatever the spelling, and nothing off the grid", () => {
    expect(offeredSlot(base, "2026-03-09T09:00:00-07:00", now)).toEqual({
      start: "2026-03-09T16:00:00.000Z",
      end: "2026-03-09T17:00:00.000Z",
    });
    expect(offeredSlot(base, "2026-03-09T16:01:00Z", now)).toBeUndefined();
    expect(offeredSlot(base, "2026-03-10T16:00:00Z", now)).toBeUndefined();
    expect(offeredSlot(base, "not a date", now)).toBeUndefined();
  });
});

describe("parseSlotsQuery", () => {
  const now = new Date("2026-03-09T04:00:00Z");
  const parse = (query: string) => parseSlotsQuery(new URLSearchParams(query), "America/Los_Angeles", now);

  it("defaults to two weeks from today in the owner's zone, and allows at most 62 days", () => {
    expect(parse("")).toEqual({ ok: true, from: "2026-03-08", to: "2026-03-21" });
    expect(parse("from=2026-03-01&to=2026-05-01")).toEqual({ ok: true, from: "2026-03-01", to: "2026-05-01" });
    expect(parse("from=2026-03-01&to=2026-05-02")).toMatchObject({ ok: false });
    expect(parse("from=2026-03-02&to=2026-03-01")).toMatchObject({ ok: false });
    for (const bad of ["from=2026-02-30", "to=2026-13-01", "from=yesterday", "from=2026-3-1"])
      expect(parse(bad), bad).toMatchObject({ ok: false });
  });
});

describe("parseAvailability", () => {
  const current: Availability = {
    enabled: false,
    timeZone: "America/Los_Angeles",
    slotMinutes: 30,
    bufferMinutes: 25,
    minNoticeHours: 12,
    horizonDays: 30,
    weekly: [],
    daysOff: ["2026-12-25"],
  };
  const valid = {
    enabled: true,
    timeZone: "Europe/Berlin",
    slotMinutes: 45,
    minNoticeHours: 2,
    horizonDays: 60,
    weekly: [
      { day: 2, start: "13:00", end: "17:00" },
      { day: 2, start: "09:00", end: "12:00" },
      { day: 1, start: "12:00", end: "13:00" },
      { day: 1, start: "09:00", end: "12:00" },
    ],
  };
  const issuesOf = (body: unknown) => {
    const parsed = parseAvailability(body, current);
    return parsed.ok ? [] : parsed.issues.map((issue) => issue.field);
  };

  it("keeps bufferMinutes and daysOff when left out, sorts the ranges, and takes touching ranges", () => {
    const parsed = parseAvailability(valid, current);
    expect(parsed).toEqual({
      ok: true,
      value: {
        ...valid,
        bufferMinutes: 25,
        daysOff: ["2026-12-25"],
        weekly: [
          { day: 1, start: "09:00", end: "12:00" },
          { day: 1, start: "12:00", end: "13:00" },
          { day: 2, start: "09:00", end: "12:00" },
          { day: 2, start: "13:00", end: "17:00" },
        ],
      },
    });
    const replaced = parseAvailability(
      { ...valid, bufferMinutes: 0, daysOff: ["2026-07-04", "2026-01-01", "2026-07-04"] },
      current,
    );
    expect(replaced.ok && [replaced.value.bufferMinutes, replaced.value.daysOff]).toEqual([
      0,
      ["2026-01-01", "2026-07-04"],
    ]);
  });

  it("names the range that overlaps another on its day, and the end before its start", () => {
    expect(
      issuesOf({
        ...valid,
        weekly: [
          { day: 3, start: "09:00", end: "12:00" },
          { day: 3, start: "11:30", end: "14:00" },
        ],
      }),
    ).toEqual(["weekly[1]"]);
    expect(issuesOf({ ...valid, weekly: [{ day: 4, start: "10:00", end: "09:00" }] })).toEqual(["weekly[0].end"]);
    expect(issuesOf({ ...valid, weekly: [{ day: 4, start: "10:00", end: "10:00" }] })).toEqual(["weekly[0].end"]);
    expect(
      issuesOf({
        ...valid,
        weekly: [
          { day: 1, start: "09:00", end: "10:00" },
          { day: 8, start: "09:00", end: "10:00" },
          { day: 2, start: "9:00", end: "10:00" },
          { day: 3, start: "09:00", end: "24:00" },
        ],
      }),
    ).toEqual(["weekly[1].day", "weekly[2].start", "weekly[3].end"]);
  });

  it("names an unknown time zone, numbers out of range and bad dates off", () => {
    expect(issuesOf({ ...valid, timeZone: "Mars/Olympus_Mons" })).toEqual(["timeZone"]);
    expect(issuesOf({ ...valid, timeZone: "" })).toEqual(["timeZone"]);
    expect(issuesOf({ ...valid, timeZone: 5 })).toEqual(["timeZone"]);
    expect(issuesOf({ ...valid, slotMinutes: 9 })).toEqual(["slotMinutes"]);
    expect(issuesOf({ ...valid, slotMinutes: 30.5 })).toEqual(["slotMinutes"]);
    expect(issuesOf({ ...valid, bufferMinutes: -1 })).toEqual(["bufferMinutes"]);
    expect(issuesOf({ ...valid, minNoticeHours: 721 })).toEqual(["minNoticeHours"]);
    expect(issuesOf({ ...valid, horizonDays: 0 })).toEqual(["horizonDays"]);
    expect(issuesOf({ ...valid, horizonDays: "30" })).toEqual(["horizonDays"]);
    expect(issuesOf({ ...valid, daysOff: ["2026-02-30", "2026-03-01"] })).toEqual(["daysOff[0]"]);
    expect(issuesOf({ ...valid, enabled: "yes" })).toEqual(["enabled"]);
    expect(issuesOf({ ...valid, weekly: undefined })).toEqual(["weekly"]);
    expect(issuesOf([valid])).toEqual(["body"]);
    const { slotMinutes: _left, ...missing } = valid;
    expect(issuesOf(missing)).toEqual(["slotMinutes"]);
  });

  it("refuses more than four ranges a day", () => {
    const five = ["08", "09", "10", "11", "12"].map((hour) => ({ day: 5, start: `${hour}:00`, end: `${hour}:30` }));
    expect(issuesOf({ ...valid, weekly: five })).toEqual(["weekly"]);
  });
});
