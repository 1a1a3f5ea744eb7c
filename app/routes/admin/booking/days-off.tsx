/**
 * The Booking screen's days off (ADR 071): a date field for each, with its
 * remove button, and "Add a day off" up to the bound. Focus follows the
 * change: to the new date, or back to the add button.
 */
import { flushSync } from "react-dom";
import { hintClass, labelClass } from "~/components/admin/field-classes";
import { bookingAdminText as text } from "~/content/booking-admin";
import { BOOKING_BOUNDS } from "~/lib/booking";
import { describedBy, errorId, fieldClass, FieldError, invalidProps } from "./field-parts";
import { type DayOffRow, ids, newKey } from "./form-model";

const HINT = "booking-days-off-hint";
const ADD = "add-day-off";
const focus = (id: string) => document.getElementById(id)?.focus();

export function DaysOff({
  rows,
  onChange,
  errorFor,
}: {
  rows: DayOffRow[];
  onChange: (rows: DayOffRow[]) => void;
  errorFor: (id: string) => string | undefined;
}) {
  const add = () => {
    const row = { key: newKey(), date: "" };
    flushSync(() => onChange([...rows, row]));
    focus(ids.dayOff(row.key));
  };
  const remove = (row: DayOffRow) => {
    flushSync(() => onChange(rows.filter((other) => other !== row)));
    focus(ADD);
  };
  const error = errorFor(ids.daysOff);
  return (
    <fieldset
      id={ids.daysOff}
      tabIndex={-1}
      aria-describedby={describedBy(HINT, error && errorId(ids.daysOff))}
      className="flex flex-col gap-3 rounded-lg border border-neutral-200 bg-white p-5 outline-none"
    >
      <legend className="px-1 text-lg font-semibold">{text.daysOffLegend}</legend>
      <p id={HINT} className={hintClass}>
        {text.daysOffHint}
      </p>
      <FieldError id={ids.daysOff} error={error} />
      {rows.length === 0 && <p className="text-neutral-700">{text.noDaysOff}</p>}
      {rows.map((row, i) => {
        const id = ids.dayOff(row.key);
        const name = text.fieldOf(text.dayOffLabel, text.dayOffName(i + 1));
        const rowError = errorFor(id);
        return (
          <div key={row.key} className="flex flex-col gap-1">
            <label htmlFor={id} className={labelClass}>
              {text.dayOffLabel}
            </label>
            <div className="flex flex-wrap items-center gap-3">
              <input
                id={id}
                type="date"
                name="dayOff"
                value={row.date}
                onChange={(event) =>
                  onChange(rows.map((other) => (other === row ? { ...row, date: event.target.value } : other)))
                }
                aria-label={name}
                {...invalidProps(id, rowError)}
                className={`h-11 w-48 ${fieldClass}`}
              />
              <button
                type="button"
                onClick={() => remove(row)}
                aria-label={text.removeDayOff(row.date || text.dayOffName(i + 1))}
                className="h-11 rounded-md border border-red-300 bg-white px-3 text-sm font-medium text-red-800 hover:bg-red-50"
              >
                {text.remove}
              </button>
            </div>
            <FieldError id={id} error={rowError} />
          </div>
        );
      })}
      <div>
        <button
          id={ADD}
          type="button"
          disabled={rows.length >= BOOKING_BOUNDS.daysOff}
          onClick={add}
          className="min-h-10 rounded-md border border-brand-700 bg-white px-3 text-sm font-medium text-brand-800 hover:bg-brand-50 disabled:border-neutral-300 disabled:text-neutral-600"
        >
          {text.addDayOff}
        </button>
      </div>
    </fieldset>
  );
}
