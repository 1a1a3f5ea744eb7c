/**
 * The Booking form's first part (ADR 071): whether visitors can book, the
 * owner's time zone (every zone the server knows, the saved one always
 * among them) and the numbers, each with its bounds.
 */
import { hintClass, labelClass } from "~/components/admin/field-classes";
import { bookingAdminText as text } from "~/content/booking-admin";
import { BOOKING_BOUNDS } from "~/lib/booking";
import { fieldClass, FieldError, invalidProps } from "./field-parts";
import { type FormState, ids, NUMBER_FIELDS } from "./form-model";

const ENABLED_HINT = "booking-enabled-hint";
const ZONE_HINT = "booking-timeZone-hint";

export function CallFields({
  state,
  timeZones,
  onChange,
  errorFor,
}: {
  state: FormState;
  timeZones: string[];
  onChange: (change: Partial<FormState>) => void;
  errorFor: (id: string) => string | undefined;
}) {
  const zoneId = ids.field("timeZone");
  const zones = timeZones.includes(state.timeZone) ? timeZones : [state.timeZone, ...timeZones];
  return (
    <div className="flex flex-col gap-5 rounded-lg border border-neutral-200 bg-white p-5">
      <div className="flex items-start gap-3">
        <input
          id={ids.field("enabled")}
          type="checkbox"
          name="enabled"
          checked={state.enabled}
          onChange={(event) => onChange({ enabled: event.target.checked })}
          aria-describedby={ENABLED_HINT}
          className="mt-1 size-5 shrink-0 accent-brand-700"
        />
        <div>
          <label htmlFor={ids.field("enabled")} className="font-semibold text-neutral-900">
            {text.enabled}
          </label>
          <p id={ENABLED_HINT} className={hintClass}>
            {text.enabledHint}
          </p>
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={zoneId} className={labelClass}>
          {text.timeZone}
        </label>
        <select
          id={zoneId}
          name="timeZone"
          value={state.timeZone}
          onChange={(event) => onChange({ timeZone: event.target.value })}
          {...invalidProps(zoneId, errorFor(zoneId), ZONE_HINT)}
          className={`h-11 w-full sm:max-w-sm ${fieldClass}`}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
        <p id={ZONE_HINT} className={hintClass}>
          {text.timeZoneHint}
        </p>
        <FieldError id={zoneId} error={errorFor(zoneId)} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        {NUMBER_FIELDS.map((name) => {
          const id = ids.field(name);
          const { min, max } = BOOKING_BOUNDS[name];
          return (
            <div key={name} className="flex flex-col gap-1">
              <label htmlFor={id} className={labelClass}>
                {text[name]}
              </label>
              <input
                id={id}
                type="number"
                inputMode="numeric"
                name={name}
                min={min}
                max={max}
                step={1}
                value={state[name]}
                onChange={(event) => onChange({ [name]: event.target.value })}
                {...invalidProps(id, errorFor(id), `${id}-hint`)}
                className={`h-11 w-32 ${fieldClass}`}
              />
              <p id={`${id}-hint`} className={hintClass}>
                {text.bounds(min, max)}
              </p>
              <FieldError id={id} error={errorFor(id)} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
