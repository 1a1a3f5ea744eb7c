/**
 * The Booking screen's form as data (ADR 071): its rows as the owner edits
 * them, what a refused save answers, and where each of the API's issues is
 * shown. The ranges stay ordered by day, as the form lists them, so the
 * n-th range posted is the API's `weekly[n]`.
 */
import { WEEKDAY_NAMES, bookingAdminText as text } from "~/content/booking-admin";
import type { Availability, BookingIssue } from "~/lib/booking";

export const NUMBER_FIELDS = ["slotMinutes", "bufferMinutes", "minNoticeHours", "horizonDays"] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];

/** What the form posts, as typed: the action answers it back with a refusal. */
export interface PostedValues extends Record<NumberField, string> {
  enabled: boolean;
  timeZone: string;
  weekly: Array<{ day: number; start: string; end: string }>;
  daysOff: string[];
}

export interface RangeRow {
  /** React's key and the fields' ids: a row keeps them while others come and go. */
  key: string;
  day: number;
  start: string;
  end: string;
}

export interface DayOffRow {
  key: string;
  date: string;
}

export interface FormState extends Omit<PostedValues, "weekly" | "daysOff"> {
  weekly: RangeRow[];
  daysOff: DayOffRow[];
}

export const valuesOf = (availability: Availability): PostedValues => ({
  ...availability,
  slotMinutes: String(availability.slotMinutes),
  bufferMinutes: String(availability.bufferMinutes),
  minNoticeHours: String(availability.minNoticeHours),
  horizonDays: String(availability.horizonDays),
});

export const stateOf = (values: PostedValues): FormState => ({
  ...values,
  weekly: byDay(values.weekly.map((range, i) => ({ ...range, key: `r${i}` }))),
  daysOff: values.daysOff.map((date, i) => ({ key: `d${i}`, date })),
});

/** A new row's key, made when the owner adds it (never while rendering). */
export const newKey = () => `n${Math.random().toString(36).slice(2, 10)}`;

/** Stable: a day's ranges keep their order. */
export const byDay = (rows: RangeRow[]) => [...rows].sort((a, b) => a.day - b.day);

export const dayName = (day: number) => WEEKDAY_NAMES[day - 1] ?? String(day);

/** The 1-based place of `row` among its day's ranges. */
const placeInDay = (rows: RangeRow[], row: RangeRow) => rows.filter((other) => other.day === row.day).indexOf(row) + 1;

export const rangeName = (rows: RangeRow[], row: RangeRow) => text.rangeName(dayName(row.day), placeInDay(rows, row));

/** Each field's id, and the id of the note beside a list. */
export const ids = {
  field: (name: "enabled" | "timeZone" | NumberField) => `booking-${name}`,
  rangeStart: (key: string) => `range-${key}-start`,
  rangeEnd: (key: string) => `range-${key}-end`,
  dayOff: (key: string) => `day-off-${key}`,
  weekly: "booking-weekly",
  daysOff: "booking-days-off",
};

const FIELD_LABELS: Record<string, string> = {
  enabled: text.enabled,
  timeZone: text.timeZone,
  slotMinutes: text.slotMinutes,
  bufferMinutes: text.bufferMinutes,
  minNoticeHours: text.minNoticeHours,
  horizonDays: text.horizonDays,
  weekly: text.weeklyLegend,
  daysOff: text.daysOffLegend,
};

/** The index in `weekly[3].end` and the part after it; bounded, so it cannot backtrack. */
const LIST_FIELD = /^(weekly|daysOff)\[(\d{1,3})\](?:\.(day|start|end))?$/;

export interface Problem {
  /** The id of the field to fix (the summary links to it). */
  target: string;
  text: string;
}

/**
 * Where each issue of a refused save is shown, by field id, with its
 * message in the screen's words ("weekly[2].end must be..." becomes "To
 * (Tuesday, range 2) must be..."). `state` is the form as it was posted.
 */
export function placeIssues(issues: BookingIssue[], state: FormState): Problem[] {
  return issues.map((issue) => {
    const say = (name: string) =>
      issue.message.startsWith(issue.field) ? `${name}${issue.message.slice(issue.field.length)}` : issue.message;
    const label = FIELD_LABELS[issue.field];
    if (label) {
      const target =
        issue.field === "weekly" ? ids.weekly : issue.field === "daysOff" ? ids.daysOff : `booking-${issue.field}`;
      return { target, text: say(label) };
    }
    const [, list, index, part] = LIST_FIELD.exec(issue.field) ?? [];
    if (list === "daysOff") {
      const row = state.daysOff[Number(index)];
      if (row)
        return {
          target: ids.dayOff(row.key),
          text: say(text.fieldOf(text.dayOffLabel, text.dayOffName(Number(index) + 1))),
        };
    }
    const row = list === "weekly" ? state.weekly[Number(index)] : undefined;
    if (row) {
      const range = rangeName(state.weekly, row);
      if (part === "end") return { target: ids.rangeEnd(row.key), text: say(text.fieldOf(text.to, range)) };
      if (part === "start") return { target: ids.rangeStart(row.key), text: say(text.fieldOf(text.from, range)) };
      return { target: ids.rangeStart(row.key), text: say(range) };
    }
    return { target: ids.field("enabled"), text: issue.message };
  });
}
