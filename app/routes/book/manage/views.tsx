import { CallTime } from "~/components/site/booking/call-time";
import { managePage } from "~/content/booking";
import { templateOf } from "../island-text";
import { PageIsland } from "~/islands/island";
import { primaryButton } from "../date-links";

/** The states of a booking's page that offer nothing to change (ADR 071). */

const bookLink = (
  <p className="mt-8">
    <a href="/book" className={`inline-block ${primaryButton}`}>
      {managePage.bookAgain}
    </a>
  </p>
);

/** A token that names no booking: mistyped, forged, or a booking long pruned. */
export function LinkNotValid() {
  return (
    <>
      <h1 className="text-4xl font-bold">{managePage.notFoundHeading}</h1>
      <p className="mt-4 text-lg text-neutral-800">{managePage.notFound}</p>
      {bookLink}
    </>
  );
}

export function CancelledCall() {
  return (
    <>
      <h1 className="text-4xl font-bold">{managePage.cancelledHeading}</h1>
      <p className="mt-4 text-lg text-neutral-800">{managePage.cancelledText}</p>
      {bookLink}
    </>
  );
}

/** A call whose time has come: nothing to cancel or move. */
export function PastCall({ start, ownerZone }: { start: string; ownerZone: string }) {
  return (
    <>
      <h1 className="text-4xl font-bold">{managePage.heading}</h1>
      <PageIsland
        name="call-time"
        component={CallTime}
        props={{ start, ownerZone, sentence: templateOf(managePage.when), className: "mt-4 text-lg text-neutral-800" }}
      />
      <p className="mt-4 text-lg text-neutral-800">{managePage.past}</p>
      {bookLink}
    </>
  );
}
