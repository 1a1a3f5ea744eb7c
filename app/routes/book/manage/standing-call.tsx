import { CallTime } from "~/components/site/booking/call-time";
import { SlotPicker } from "~/components/site/booking/slot-picker";
import { SubmitButton } from "~/components/site/booking/submit-button";
import { bookingPage, managePage } from "~/content/booking";
import { PageIsland } from "~/islands/island";
import { DateLinks, primaryButton } from "../date-links";
import { pickerText, templateOf } from "../island-text";
import type { SlotWindow } from "../slot-window.server";

/** What the last POST did: asked to confirm a cancellation, moved the call, or was refused. */
export type ManageOutcome =
  { step: "confirm-cancel" } | { step: "moved"; start: string } | { step: "refused"; message: string } | null;

const ERROR_ID = "reschedule-error";
const secondaryButton =
  "inline-flex min-h-11 items-center rounded-md border border-neutral-400 bg-white px-5 py-2.5 font-semibold text-neutral-900 hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2";
const dangerButton =
  "min-h-11 rounded-md bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-2 disabled:cursor-wait disabled:opacity-80";

/**
 * A call still to come (ADR 071): its time, Cancel (a second step asks
 * first, as its own page so that it works without JavaScript) and the free
 * times to move it to.
 */
export function StandingCall({
  start,
  ownerZone,
  path,
  dates,
  outcome,
}: {
  start: string;
  ownerZone: string;
  path: string;
  dates: SlotWindow | null;
  outcome: ManageOutcome;
}) {
  const refused = outcome?.step === "refused" ? outcome.message : null;
  return (
    <>
      <h1 className="text-4xl font-bold">{managePage.heading}</h1>
      <PageIsland
        name="call-time"
        component={CallTime}
        props={{ start, ownerZone, sentence: templateOf(managePage.when), className: "mt-4 text-lg text-neutral-800" }}
      />
      {outcome?.step === "moved" && (
        <div role="status" className="mt-4 rounded-md border border-green-300 bg-green-50 p-4 text-green-900">
          <PageIsland
            name="call-time"
            component={CallTime}
            props={{ start: outcome.start, ownerZone, sentence: templateOf(managePage.moved) }}
          />
        </div>
      )}
      <div className="mt-6">
        {outcome?.step === "confirm-cancel" ? (
          <div className="rounded-md border border-red-300 bg-red-50 p-4">
            <p
              id="cancel-question"
              tabIndex={-1}
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the question the visitor just asked for, read as the page loads
              autoFocus
              className="font-medium text-red-950"
            >
              {managePage.cancelQuestion}
            </p>
            <div className="mt-4 flex flex-wrap items-center gap-3">
              <form method="post">
                <input type="hidden" name="intent" value="cancel-confirmed" />
                <PageIsland
                  name="submit-button"
                  component={SubmitButton}
                  props={{ label: managePage.cancelConfirm, busyLabel: managePage.cancelling, className: dangerButton }}
                />
              </form>
              <a href={path} className={secondaryButton}>
                {managePage.keep}
              </a>
            </div>
          </div>
        ) : (
          <form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <button type="submit" className={secondaryButton}>
              {managePage.cancel}
            </button>
          </form>
        )}
      </div>
      <section aria-labelledby="reschedule-heading" className="mt-12 border-t border-neutral-200 pt-8">
        <h2 id="reschedule-heading" className="text-2xl font-bold">
          {managePage.reschedule}
        </h2>
        {refused && (
          <p
            id={ERROR_ID}
            role="alert"
            tabIndex={-1}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the refusal just posted for, read as the page loads
            autoFocus
            className="mt-4 rounded-md border border-red-300 bg-red-50 p-4 font-medium text-red-900"
          >
            {refused}
          </p>
        )}
        {!dates ? (
          <p className="mt-4 text-neutral-800">{bookingPage.closed}</p>
        ) : dates.slots.length === 0 ? (
          <>
            <p className="mt-4 rounded-md border border-neutral-300 bg-neutral-50 p-4 text-neutral-800">
              {bookingPage.noSlots}
            </p>
            <DateLinks path={path} earlier={dates.earlier} later={dates.later} />
          </>
        ) : (
          <form method="post" noValidate className="mt-2 flex flex-col gap-6">
            <input type="hidden" name="intent" value="reschedule" />
            <div>
              <PageIsland
                name="booking-slots"
                component={SlotPicker}
                props={{
                  slots: dates.slots,
                  ownerZone,
                  text: pickerText(managePage.rescheduleLegend, ownerZone, true),
                  describedBy: refused ? ERROR_ID : undefined,
                }}
              />
              <DateLinks path={path} earlier={dates.earlier} later={dates.later} />
            </div>
            <div>
              <PageIsland
                name="submit-button"
                component={SubmitButton}
                props={{ label: managePage.rescheduleSubmit, busyLabel: managePage.moving, className: primaryButton }}
              />
            </div>
          </form>
        )}
      </section>
    </>
  );
}
