/**
 * The Booking screen's list of the calls still to come (ADR 071), soonest
 * first and paged like the other admin lists: each call's time in the
 * owner's zone, who booked it, a link to their lead in the inbox, and the
 * owner's cancel: a disclosure that asks first, a form that works without
 * the page's script.
 */
import { Form, Link } from "react-router";
import { Pager } from "~/components/admin/pager";
import { bookingAdminText as text } from "~/content/booking-admin";
import type { CancelAnswer } from "./actions.server";

export interface UpcomingCall {
  id: string;
  start: string;
  /** The start as the owner reads it, formatted on the server. */
  when: string;
  name: string;
  messageId: string | null;
}

export function UpcomingCalls({
  calls,
  total,
  page,
  pages,
  answer,
}: {
  calls: UpcomingCall[];
  total: number;
  page: number;
  pages: number;
  answer: CancelAnswer | undefined;
}) {
  return (
    <section aria-labelledby="upcoming-heading" className="mt-10">
      <h2 id="upcoming-heading" className="text-xl font-semibold">
        {text.upcomingHeading}
      </h2>
      <div role="status">
        {answer && (
          <p className="mt-2 rounded-md border border-neutral-300 bg-neutral-50 px-3 py-2">
            {answer.cancelled ? text.callCancelledNow(answer.name, answer.when) : text.callGone}
          </p>
        )}
      </div>
      <p className="mt-1 text-neutral-700">{total === 0 ? text.upcomingEmpty : text.upcomingCount(total)}</p>
      {calls.length > 0 && (
        <ul className="mt-3 flex flex-col gap-3">
          {calls.map((call) => (
            <li key={call.id} className="rounded-lg border border-neutral-200 bg-white p-4">
              <p className="font-semibold">
                <time dateTime={call.start}>{call.when}</time>
              </p>
              <p className="mt-1 break-words">{call.name}</p>
              {call.messageId && (
                <p className="mt-2 text-sm">
                  <Link
                    to={`/admin/messages/${call.messageId}`}
                    className="font-medium text-brand-800 underline underline-offset-2"
                  >
                    {text.openLead(call.name)}
                  </Link>
                </p>
              )}
              <CancelCall call={call} />
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} hrefFor={(n) => `/admin/booking?page=${n}`} label={text.upcomingPages} />
    </section>
  );
}

/** "Cancel the call...": opens a question and the one button that cancels. */
function CancelCall({ call }: { call: UpcomingCall }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer font-medium text-red-800 underline underline-offset-2">
        {text.cancelCall}
      </summary>
      <Form method="post" className="mt-2 flex flex-col items-start gap-2">
        <input type="hidden" name="intent" value="cancel-call" />
        <input type="hidden" name="id" value={call.id} />
        <p>{text.cancelCallQuestion(call.name, call.when)}</p>
        <button type="submit" className="rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800">
          {text.cancelCallConfirm}
        </button>
      </Form>
    </details>
  );
}
