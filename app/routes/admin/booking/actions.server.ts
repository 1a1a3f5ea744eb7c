import type { RouterContextProvider } from "react-router";
import { type BookingIssue, parseAvailability } from "~/lib/booking";
import { cancelBookingBy, findBooking, readAvailability, saveAvailabilityBy } from "~/server/booking/index.server";
import { formatCallTime } from "~/lib/call-time";
import { signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { readFormBody } from "~/server/platform/http.server";
import { NUMBER_FIELDS, type PostedValues } from "./form-model";

/**
 * The Booking screen's save (ADR 051: a screen changes data through its
 * route action): the urlencoded form becomes the body PUT
 * /api/admin/booking takes, checked by the same rules and audited the same
 * way. A refusal answers every issue and what was posted, so nothing typed
 * is lost, with or without the page's script.
 */

export type BookingAnswer = { saved: true } | { saved: false; issues: BookingIssue[]; values: PostedValues };
/** The answer to the owner's cancel of a call: who and when, or that it was gone. */
export type CancelAnswer = { cancelled: true; name: string; when: string } | { cancelled: false };

/** The screen's one action: a call cancelled (`intent=cancel-call`), else the availability saved. */
export async function bookingScreenAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ answer: BookingAnswer | CancelAnswer; status: number }> {
  const form = await readFormBody(request);
  return form.get("intent") === "cancel-call"
    ? cancelCall(form, request, context)
    : saveAvailabilityForm(form, request, context);
}

/** The owner cancels a call as the visitor's link would (ADR 071): the visitor is e-mailed, the time is free. */
async function cancelCall(
  form: URLSearchParams,
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ answer: CancelAnswer; status: number }> {
  const db = context.get(dbContext);
  const booking = await findBooking(db, form.get("id") ?? "");
  if (!booking || booking.status !== "confirmed") return { answer: { cancelled: false }, status: 404 };
  await cancelBookingBy(db, booking, {
    admin: signedInAdmin(context),
    request,
    clientAddress: context.get(clientAddressContext),
  });
  const when = formatCallTime(booking.start, (await readAvailability(db)).timeZone);
  return { answer: { cancelled: true, name: booking.name, when }, status: 200 };
}

/** At most six digits: anything else goes to the check as typed, which names the field. */
const WHOLE = /^\d{1,6}$/;
const whole = (value: string): number | string => (WHOLE.test(value) ? Number(value) : value);

async function saveAvailabilityForm(
  form: URLSearchParams,
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ answer: BookingAnswer; status: number }> {
  const db = context.get(dbContext);
  const text = (name: string) => (form.get(name) ?? "").trim();
  const days = form.getAll("day");
  const starts = form.getAll("start");
  const ends = form.getAll("end");
  const values: PostedValues = {
    enabled: form.get("enabled") === "on",
    timeZone: text("timeZone"),
    slotMinutes: text("slotMinutes"),
    bufferMinutes: text("bufferMinutes"),
    minNoticeHours: text("minNoticeHours"),
    horizonDays: text("horizonDays"),
    weekly: days.map((day, i) => ({ day: Number(day), start: starts[i] ?? "", end: ends[i] ?? "" })),
    daysOff: form.getAll("dayOff"),
  };
  const parsed = parseAvailability(
    {
      ...values,
      ...Object.fromEntries(NUMBER_FIELDS.map((name) => [name, whole(values[name])])),
    },
    await readAvailability(db),
  );
  if (!parsed.ok) return { answer: { saved: false, issues: parsed.issues, values }, status: 400 };
  await saveAvailabilityBy(db, parsed.value, {
    admin: signedInAdmin(context),
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return { answer: { saved: true }, status: 200 };
}
