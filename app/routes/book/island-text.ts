import type { SlotPickerText } from "~/components/site/booking/slot-picker";
import type { Template } from "~/components/site/booking/template";
import { bookingPage } from "~/content/booking";

/**
 * The booking pages' sentences as their islands take them (ADR 071): a
 * copy function of one value becomes the text around it
 * (components/site/booking/template.ts).
 */

const MARK = "\u0000";

/** The template of a copy function of one value (the value must appear once). */
export function templateOf(sentence: (value: string) => string): Template {
  const [before = "", after = ""] = sentence(MARK).split(MARK);
  return [before, after];
}

/** The slot picker's sentences under `legend` (hidden under a heading that says it), for slots shown first in `ownerZone`. */
export function pickerText(legend: string, ownerZone: string, legendHidden = false): SlotPickerText {
  return {
    legend,
    legendHidden,
    timesIn: bookingPage.timesIn(ownerZone),
    timesInYours: templateOf(bookingPage.timesInYours),
    chosen: templateOf(bookingPage.chosen),
    noneChosen: bookingPage.noneChosen,
  };
}
