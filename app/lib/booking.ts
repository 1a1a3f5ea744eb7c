import { bookingErrors } from "~/content/booking";
import { CONTACT_LIMITS } from "./contact-rules";
import { isValidEmail } from "./email";

/**
 * Booking a call (ADR 071): the owner's availability as the API, the Booking
 * screen and the server share it, its bounds and its checks, and the
 * visitor's booking's fields. Free of the date library, which only the
 * server loads: a time zone is checked here with Intl, which every browser
 * and Node has.
 */

/** One range of a weekday's hours, in the owner's time zone: day 1 is Monday, 7 Sunday; "HH:MM". */
export interface WeeklyHours {
  day: number;
  start: string;
  end: string;
}

export interface Availability {
  enabled: boolean;
  /** IANA name, e.g. America/Los_Angeles. */
  timeZone: string;
  slotMinutes: number;
  /** Free minutes kept after each call before the next may start. */
  bufferMinutes: number;
  /** No call starts sooner than this after it is booked. */
  minNoticeHours: number;
  /** No call starts later than this many days ahead. */
  horizonDays: number;
  weekly: WeeklyHours[];
  /** Dates (YYYY-MM-DD, in timeZone) with no calls. */
  daysOff: string[];
}

/** Bounds of each setting; checked before anything else reads the value. */
export const BOOKING_BOUNDS = {
  slotMinutes: { min: 10, max: 240 },
  bufferMinutes: { min: 0, max: 120 },
  minNoticeHours: { min: 0, max: 720 },
  horizonDays: { min: 1, max: 365 },
  /** Ranges in the week, and per day. */
  weekly: 28,
  rangesPerDay: 4,
  daysOff: 100,
  timeZone: 64,
} as const;

export const BOOKING_LIMITS = {
  ...CONTACT_LIMITS,
  message: 2000,
  /** Days one slots query may span. */
  slotsQueryDays: 62,
  /** Calls one e-mail address may have booked and not yet had. */
  openPerEmail: 3,
} as const;

export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export interface BookingIssue {
  /** The field as the API spells it: "timeZone", "weekly[2].end", "daysOff[0]". */
  field: string;
  message: string;
}

export type AvailabilityParse = { ok: true; value: Availability } | { ok: false; issues: BookingIssue[] };

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;

/** Whether the runtime knows the IANA time zone `name`. */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > BOOKING_BOUNDS.timeZone) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A real calendar date, YYYY-MM-DD. */
export function isDate(value: string): boolean {
  if (value.length !== 10 || !DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function integerIn(
  issues: BookingIssue[],
  field: keyof typeof BOOKING_BOUNDS & ("slotMinutes" | "bufferMinutes" | "minNoticeHours" | "horizonDays"),
  value: unknown,
): number {
  const { min, max } = BOOKING_BOUNDS[field];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    issues.push({ field, message: `${field} must be a whole number from ${min} to ${max}` });
    return min;
  }
  return value;
}

function parseWeekly(issues: BookingIssue[], value: unknown): WeeklyHours[] {
  if (!Array.isArray(value)) {
    issues.push({ field: "weekly", message: "weekly must be a list of {day, start, end}" });
    return [];
  }
  if (value.length > BOOKING_BOUNDS.weekly) {
    issues.push({ field: "weekly", message: `weekly holds at most ${BOOKING_BOUNDS.weekly} ranges` });
    return [];
  }
  const ranges: Array<{ range: WeeklyHours; index: number }> = [];
  value.forEach((item: unknown, index) => {
    const field = `weekly[${index}]`;
    const { day, start, end } = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof day !== "number" || !Number.isInteger(day) || day < 1 || day > 7) {
      issues.push({ field: `${field}.day`, message: `${field}.day must be 1 (Monday) to 7 (Sunday)` });
      return;
    }
    if (typeof start !== "string" || start.length !== 5 || !TIME.test(start)) {
      issues.push({ field: `${field}.start`, message: `${field}.start must be a time, HH:MM` });
      return;
    }
    if (typeof end !== "string" || end.length !== 5 || !TIME.test(end)) {
      issues.push({ field: `${field}.end`, message: `${field}.end must be a time, HH:MM` });
      return;
    }
    if (minutesOf(end) <= minutesOf(start)) {
      issues.push({ field: `${field}.end`, message: `${field}.end must be after its start (${start})` });
      return;
    }
    ranges.push({ range: { day, start, end }, index });
  });
  if (issues.length > 0) return [];
  for (const day of WEEKDAYS) {
    const ofDay = ranges
      .filter(({ range }) => range.day === day)
      .sort((a, b) => minutesOf(a.range.start) - minutesOf(b.range.start));
    if (ofDay.length > BOOKING_BOUNDS.rangesPerDay) {
      issues.push({ field: "weekly", message: `weekly holds at most ${BOOKING_BOUNDS.rangesPerDay} ranges a day` });
      break;
    }
    for (let i = 1; i < ofDay.length; i += 1) {
      const before = ofDay[i - 1]!;
      const after = ofDay[i]!;
      if (minutesOf(after.range.start) < minutesOf(before.range.end)) {
        issues.push({
          field: `weekly[${after.index}]`,
          message: `weekly[${after.index}] (${after.range.start}-${after.range.end}) overlaps ${before.range.start}-${before.range.end} on the same day`,
        });
      }
    }
  }
  return ranges.map(({ range }) => range).sort((a, b) => a.day - b.day || minutesOf(a.start) - minutesOf(b.start));
}

function parseDaysOff(issues: BookingIssue[], value: unknown): string[] {
  if (!Array.isArray(value)) {
    issues.push({ field: "daysOff", message: "daysOff must be a list of dates, YYYY-MM-DD" });
    return [];
  }
  if (value.length > BOOKING_BOUNDS.daysOff) {
    issues.push({ field: "daysOff", message: `daysOff holds at most ${BOOKING_BOUNDS.daysOff} dates` });
    return [];
  }
  const days = new Set<string>();
  value.forEach((item: unknown, index) => {
    if (typeof item !== "string" || !isDate(item))
      issues.push({ field: `daysOff[${index}]`, message: `daysOff[${index}] must be a date, YYYY-MM-DD` });
    else days.add(item);
  });
  return [...days].sort();
}

/**
 * The availability a PUT sends, checked field by field. `enabled`,
 * `timeZone`, `slotMinutes`, `minNoticeHours`, `horizonDays` and `weekly`
 * are required; `bufferMinutes` and `daysOff` keep `current`'s values when
 * left out.
 */
export function parseAvailability(body: unknown, current: Availability): AvailabilityParse {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return {
      ok: false,
      issues: [{ field: "body", message: "Send a JSON object: {enabled, timeZone, slotMinutes, ...}" }],
    };
  const input = body as Record<string, unknown>;
  const issues: BookingIssue[] = [];
  if (typeof input.enabled !== "boolean") issues.push({ field: "enabled", message: "enabled must be true or false" });
  const timeZone = input.timeZone;
  if (typeof timeZone !== "string" || !isTimeZone(timeZone))
    issues.push({
      field: "timeZone",
      message: `timeZone must be an IANA time zone such as America/Los_Angeles${typeof timeZone === "string" && timeZone.length <= BOOKING_BOUNDS.timeZone ? `, not "${timeZone}"` : ""}`,
    });
  const value: Availability = {
    enabled: input.enabled === true,
    timeZone: typeof timeZone === "string" ? timeZone : current.timeZone,
    slotMinutes: integerIn(issues, "slotMinutes", input.slotMinutes),
    bufferMinutes:
      input.bufferMinutes === undefined
        ? current.bufferMinutes
        : integerIn(issues, "bufferMinutes", input.bufferMinutes),
    minNoticeHours: integerIn(issues, "minNoticeHours", input.minNoticeHours),
    horizonDays: integerIn(issues, "horizonDays", input.horizonDays),
    weekly: parseWeekly(issues, input.weekly),
    daysOff: input.daysOff === undefined ? current.daysOff : parseDaysOff(issues, input.daysOff),
  };
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}

/** What a visitor sends to book: the slot's start and who they are. */
export interface BookingRequest {
  start: string;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  /** The visitor's time zone as their browser says it, for their e-mails; null when unknown. */
  timeZone: string | null;
}

export type BookingRequestParse = { ok: true; value: BookingRequest } | { ok: false; field: string; message: string };

const text = (value: unknown): string | undefined => (typeof value === "string" ? value.trim() : undefined);

/** POST /api/booking's body (and the /book form's fields): {start, name, email, phone?, message?, timeZone?}. */
export function parseBookingRequest(body: unknown): BookingRequestParse {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, field: "body", message: "Send a JSON object: {start, name, email, phone?, message?}" };
  const input = body as Record<string, unknown>;
  const start = text(input.start);
  if (!start || start.length > 40 || Number.isNaN(Date.parse(start)))
    return { ok: false, field: "start", message: bookingErrors.pickTime };
  const name = text(input.name);
  if (!name) return { ok: false, field: "name", message: bookingErrors.name };
  if (name.length > BOOKING_LIMITS.name)
    return { ok: false, field: "name", message: bookingErrors.nameTooLong(BOOKING_LIMITS.name) };
  const email = text(input.email);
  if (!email) return { ok: false, field: "email", message: bookingErrors.email };
  if (!isValidEmail(email)) return { ok: false, field: "email", message: bookingErrors.emailInvalid };
  const phone = text(input.phone) ?? "";
  if (phone.length > BOOKING_LIMITS.phone)
    return { ok: false, field: "phone", message: bookingErrors.phoneTooLong(BOOKING_LIMITS.phone) };
  const message = text(input.message) ?? "";
  if (message.length > BOOKING_LIMITS.message)
    return { ok: false, field: "message", message: bookingErrors.noteTooLong(BOOKING_LIMITS.message) };
  const zone = text(input.timeZone);
  return {
    ok: true,
    value: {
      start: new Date(start).toISOString(),
      name,
      email,
      phone: phone || null,
      message,
      timeZone: zone && isTimeZone(zone) ? zone : null,
    },
  };
}
