/**
 * The Booking screen's weekly hours (ADR 071): each weekday with its ranges,
 * a range two time fields named with their day, "Add hours on {day}" up to
 * the bound and a remove button for each. Focus follows the change: to the
 * new range's first field, or back to the day's add button.
 */
import { flushSync } from "react-dom";
import { hintClass, labelClass } from "~/components/admin/field-classes";
import { bookingAdminText as text } from "~/content/booking-admin";
import { BOOKING_BOUNDS, WEEKDAYS } from "~/lib/booking";
import { describedBy, errorId, fieldClass, FieldError, invalidProps } from "./field-parts";
import { byDay, dayName, ids, newKey, rangeName, type RangeRow } from "./form-model";

interface Props {
  rows: RangeRow[];
  onChange: (rows: RangeRow[]) => void;
  errorFor: (id: string) => string | undefined;
}

const HINT = "booking-weekly-hint";
const addId = (day: number) => `add-hours-${day}`;
const focus = (id: string) => document.getElementById(id)?.focus();

export function WeeklyHours({ rows, onChange, errorFor }: Props) {
  const add = (day: number) => {
    const first = !rows.some((row) => row.day === day);
    const row = { key: newKey(), day, start: first ? "09:00" : "", end: first ? "17:00" : "" };
    flushSync(() => onChange(byDay([...rows, row])));
    focus(ids.rangeStart(row.key));
  };
  const remove = (row: RangeRow) => {
    flushSync(() => onChange(rows.filter((other) => other !== row)));
    focus(addId(row.day));
  };
  const update = (row: RangeRow, change: Partial<RangeRow>) =>
    onChange(rows.map((other) => (other === row ? { ...row, ...change } : other)));
  const error = errorFor(ids.weekly);
  return (
    <fieldset
      id={ids.weekly}
      tabIndex={-1}
      aria-describedby={describedBy(HINT, error && errorId(ids.weekly))}
      className="flex flex-col gap-2 rounded-lg border border-neutral-200 bg-white p-3 outline-none sm:p-5"
    >
      <legend className="px-1 text-lg font-semibold">{text.weeklyLegend}</legend>
      <p id={HINT} className={hintClass}>
        {text.weeklyHint}
      </p>
      <FieldError id={ids.weekly} error={error} />
      <div className="divide-y divide-neutral-200">
        {WEEKDAYS.map((day) => {
          const ofDay = rows.filter((row) => row.day === day);
          const full = ofDay.length >= BOOKING_BOUNDS.rangesPerDay;
          return (
            <div
              key={day}
              role="group"
              aria-labelledby={`day-${day}`}
              className="flex flex-col gap-2 py-4 sm:grid sm:grid-cols-[7rem_1fr] sm:gap-4"
            >
              <p id={`day-${day}`} className="font-semibold sm:pt-2">
                {dayName(day)}
              </p>
              <div className="flex flex-col items-start gap-3">
                {ofDay.length === 0 && <p className="text-neutral-700">{text.noHours}</p>}
                {ofDay.map((row) => (
                  <RangeFields
                    key={row.key}
                    row={row}
                    name={rangeName(rows, row)}
                    errorFor={errorFor}
                    onChange={(change) => update(row, change)}
                    onRemove={() => remove(row)}
                  />
                ))}
                <button
                  id={addId(day)}
                  type="button"
                  disabled={full}
                  onClick={() => add(day)}
                  className="min-h-10 rounded-md border border-brand-700 bg-white px-3 text-sm font-medium text-brand-800 hover:bg-brand-50 disabled:border-neutral-300 disabled:text-neutral-600"
                >
                  {text.addRange(dayName(day))}
                </button>
                {full && <p className={hintClass}>{text.dayFull(BOOKING_BOUNDS.rangesPerDay)}</p>}
              </div>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

function RangeFields({
  row,
  name,
  errorFor,
  onChange,
  onRemove,
}: {
  row: RangeRow;
  /** "Tuesday", "Tuesday, range 2". */
  name: string;
  errorFor: (id: string) => string | undefined;
  onChange: (change: Partial<RangeRow>) => void;
  onRemove: () => void;
}) {
  const time = (part: "start" | "end") => {
    const id = part === "start" ? ids.rangeStart(row.key) : ids.rangeEnd(row.key);
    const error = errorFor(id);
    const label = part === "start" ? text.from : text.to;
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className={labelClass}>
          {label}
        </label>
        <input
          id={id}
          type="time"
          name={part}
          value={row[part]}
          onChange={(event) => onChange({ [part]: event.target.value })}
          aria-label={text.fieldOf(label, name)}
          {...invalidProps(id, error)}
          className={`h-11 w-36 ${fieldClass}`}
        />
      </div>
    );
  };
  // On a phone the remove button wraps under the times: a box keeps it with its range.
  return (
    <div className="flex flex-col gap-1 max-sm:self-stretch max-sm:rounded-md max-sm:border max-sm:border-neutral-200 max-sm:p-3">
      <div className="flex flex-wrap items-end gap-2 sm:gap-3">
        <input type="hidden" name="day" value={row.day} />
        {time("start")}
        {time("end")}
        <button
          type="button"
          onClick={onRemove}
          aria-label={row.start && row.end ? text.removeRange(name, row.start, row.end) : text.removeRangeOf(name)}
          className="h-11 rounded-md border border-red-300 bg-white px-3 text-sm font-medium text-red-800 hover:bg-red-50"
        >
          {text.remove}
        </button>
      </div>
      <FieldError id={ids.rangeStart(row.key)} error={errorFor(ids.rangeStart(row.key))} />
      <FieldError id={ids.rangeEnd(row.key)} error={errorFor(ids.rangeEnd(row.key))} />
    </div>
  );
}
