import { useState } from "react";
import { slotDays, useBrowserZone } from "./slot-days";
import { fill, type Template } from "./template";

/** The picker's sentences, from the page's copy (bookingPage). */
export interface SlotPickerText {
  legend: string;
  /** The legend is for screen readers alone: a heading above already says it. */
  legendHidden?: boolean;
  /** "Times are shown in {the owner's zone}." */
  timesIn: string;
  timesInYours: Template;
  chosen: Template;
  noneChosen: string;
}

/**
 * The free times to pick from (ADR 071), on /book and on a booking's own
 * page: one radio group (`start`, the slot's ISO instant) in a fieldset per
 * day, so it works without JavaScript and by the keyboard as any radio
 * group does (Tab into it, arrows between times, Tab out). The server shows
 * the owner's zone; the browser regroups the same slots in its own zone and
 * fills the hidden `timeZone` field the booking's e-mails are written in.
 */
export function SlotPicker({
  slots,
  ownerZone,
  text,
  selected = null,
  describedBy,
}: {
  slots: Array<{ start: string; end: string }>;
  ownerZone: string;
  text: SlotPickerText;
  /** The start to show checked (the visitor's choice, sent back with an error). */
  selected?: string | null;
  /** The id of the error that names this field. */
  describedBy?: string;
}) {
  const browserZone = useBrowserZone();
  // A time picked before this script ran is kept: hydration reads it from the page.
  const [chosen, setChosen] = useState(() => pickedInPage() ?? selected);
  const days = slotDays(slots, browserZone ?? ownerZone);
  const chosenDay = days.find((day) => day.times.some((time) => time.start === chosen));
  const chosenTime = chosenDay?.times.find((time) => time.start === chosen);
  return (
    <fieldset aria-describedby={describedBy} className="min-w-0">
      <legend className={text.legendHidden ? "sr-only" : "text-xl font-semibold"}>{text.legend}</legend>
      <p className="mt-1 text-sm text-neutral-700">
        {browserZone ? fill(text.timesInYours, browserZone) : text.timesIn}
      </p>
      <input type="hidden" name="timeZone" value={browserZone ?? ""} />
      <div className="mt-4 flex flex-col gap-5">
        {days.map((day) => (
          <fieldset key={day.date} className="min-w-0">
            <legend className="font-semibold">{day.label}</legend>
            <div className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(5rem,1fr))] gap-2">
              {day.times.map((time) => (
                <label key={time.start} className="slot-choice">
                  <input
                    type="radio"
                    name="start"
                    value={time.start}
                    checked={time.start === chosen}
                    onChange={() => setChosen(time.start)}
                    className="sr-only"
                  />
                  {time.label}
                </label>
              ))}
            </div>
          </fieldset>
        ))}
      </div>
      {/* Only where the script runs: without it, the server's text could not follow a new choice. */}
      {browserZone && (
        <p className="mt-4 font-medium">
          {chosenDay && chosenTime ? fill(text.chosen, `${chosenDay.label}, ${chosenTime.label}`) : text.noneChosen}
        </p>
      )}
    </fieldset>
  );
}

/** The time checked in the server's markup before hydration (a visitor quicker than the script), if any. */
function pickedInPage(): string | null {
  if (typeof document === "undefined") return null;
  return document.querySelector<HTMLInputElement>('input[type="radio"][name="start"]:checked')?.value ?? null;
}
