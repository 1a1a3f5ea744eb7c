import type { ReactNode } from "react";
import { SlotPicker } from "~/components/site/booking/slot-picker";
import { SubmitButton } from "~/components/site/booking/submit-button";
import { PrivacyLink } from "~/components/site/privacy-link";
import { bookingPage } from "~/content/booking";
import { PageIsland } from "~/islands/island";
import { BOOKING_LIMITS } from "~/lib/booking";
import { DateLinks, primaryButton } from "./date-links";
import { pickerText } from "./island-text";
import type { SlotWindow } from "./slot-window.server";

/** What the visitor typed, sent back with a refusal so that nothing is lost. */
export interface TypedFields {
  start: string;
  name: string;
  email: string;
  phone: string;
  message: string;
}

/** A refusal as the form shows it: the message, and the field it names (none for the whole form). */
export interface FormError {
  field: keyof TypedFields | null;
  message: string;
}

const ERROR_ID = "booking-error";

const inputClass =
  "min-h-11 w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600 aria-[invalid=true]:border-red-600 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600";

/**
 * /book's form (ADR 071): the free times, then who is calling, posted to the
 * page's action without JavaScript. A refusal comes back as an alert above
 * the form that takes focus (or the field it names does), with every field
 * as typed and the slots read again, a taken one gone.
 */
export function BookingForm({
  dates,
  ownerZone,
  typed,
  error,
}: {
  dates: SlotWindow;
  ownerZone: string;
  typed: TypedFields | null;
  error: FormError | null;
}) {
  const invalid = (field: keyof TypedFields) =>
    error?.field === field ? { "aria-invalid": true as const, "aria-describedby": ERROR_ID, autoFocus: true } : {};
  return (
    <form method="post" noValidate className="mt-8 flex flex-col gap-8">
      {error && (
        <p
          id={ERROR_ID}
          role="alert"
          tabIndex={-1}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the refusal just posted for: focus goes to it as the page loads, with or without script
          autoFocus={error.field === null || error.field === "start"}
          className="rounded-md border border-red-300 bg-red-50 p-4 font-medium text-red-900"
        >
          {error.message}
        </p>
      )}
      <div>
        {dates.slots.length > 0 ? (
          <PageIsland
            name="booking-slots"
            component={SlotPicker}
            props={{
              slots: dates.slots,
              ownerZone,
              text: pickerText(bookingPage.pickLegend, ownerZone),
              selected: typed?.start || null,
              describedBy: error?.field === "start" ? ERROR_ID : undefined,
            }}
          />
        ) : (
          <p className="rounded-md border border-neutral-300 bg-neutral-50 p-4 text-neutral-800">
            {bookingPage.noSlots}
          </p>
        )}
        <DateLinks path="/book" earlier={dates.earlier} later={dates.later} />
      </div>
      {(dates.slots.length > 0 || typed) && (
        <>
          <fieldset className="flex min-w-0 flex-col gap-4">
            <legend className="mb-1 text-xl font-semibold">{bookingPage.detailsLegend}</legend>
            <Field id="booking-name" label={bookingPage.name}>
              <input
                id="booking-name"
                name="name"
                required
                autoComplete="name"
                maxLength={BOOKING_LIMITS.name}
                defaultValue={typed?.name}
                className={inputClass}
                {...invalid("name")}
              />
            </Field>
            <Field id="booking-email" label={bookingPage.email}>
              <input
                id="booking-email"
                name="email"
                type="email"
                required
                autoComplete="email"
                maxLength={BOOKING_LIMITS.email}
                defaultValue={typed?.email}
                className={inputClass}
                {...invalid("email")}
              />
            </Field>
            <Field id="booking-phone" label={bookingPage.phone}>
              <input
                id="booking-phone"
                name="phone"
                type="tel"
                autoComplete="tel"
                maxLength={BOOKING_LIMITS.phone}
                defaultValue={typed?.phone}
                className={inputClass}
                {...invalid("phone")}
              />
            </Field>
            <Field id="booking-message" label={bookingPage.message}>
              <textarea
                id="booking-message"
                name="message"
                rows={4}
                maxLength={BOOKING_LIMITS.message}
                defaultValue={typed?.message}
                className={inputClass}
                {...invalid("message")}
              />
            </Field>
          </fieldset>
          <div>
            <PageIsland
              name="submit-button"
              component={SubmitButton}
              props={{ label: bookingPage.submit, busyLabel: bookingPage.submitting, className: primaryButton }}
            />
            <PrivacyLink className="mt-2" />
          </div>
        </>
      )}
    </form>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-neutral-900">
        {label}
      </label>
      {children}
    </div>
  );
}
