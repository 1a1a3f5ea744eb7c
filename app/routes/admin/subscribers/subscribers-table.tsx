import { Form } from "react-router";
import { type SubscriberStatus, subscribersAdminText as text } from "~/content/subscribers-admin";
import { formatDate } from "~/lib/dates";

export interface SubscriberRow {
  id: string;
  email: string;
  status: SubscriberStatus;
  consent: "form" | "import";
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}

/** Narrow screens: each cell becomes a "label value" line of a card (as in the posts table). */
const cardCell = "max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2 max-sm:p-0";

function CardLabel({ children }: { children: React.ReactNode }) {
  // Hidden from assistive technology, which has the column header.
  return (
    <span aria-hidden="true" className="font-semibold text-neutral-700 sm:hidden">
      {children}
    </span>
  );
}

/** The status in words; the colour only repeats them. */
const STATUS_STYLE: Record<SubscriberStatus, string> = {
  confirmed: "bg-green-100 text-green-900",
  pending: "bg-amber-100 text-amber-900",
  unsubscribed: "bg-neutral-200 text-neutral-800",
};

/** The date of the status's own event: confirmed on, unsubscribed on, or not yet. */
function changed(row: SubscriberRow) {
  if (row.status === "confirmed" && row.confirmedAt)
    return <time dateTime={row.confirmedAt}>{text.changedOn.confirmed(formatDate(row.confirmedAt))}</time>;
  if (row.status === "unsubscribed" && row.unsubscribedAt)
    return <time dateTime={row.unsubscribedAt}>{text.changedOn.unsubscribed(formatDate(row.unsubscribedAt))}</time>;
  return <span className="text-neutral-700">{text.notYet}</span>;
}

/** One page of subscribers: address, status, how it came, dates, and Remove (asked first). */
export function SubscribersTable({
  subscribers,
  loading,
  busyId,
}: {
  subscribers: SubscriberRow[];
  loading: boolean;
  busyId: FormDataEntryValue | null | undefined;
}) {
  if (subscribers.length === 0) return null;
  const { columns } = text;
  return (
    <div
      aria-busy={loading}
      className={`mt-2 rounded-lg border border-neutral-200 bg-white shadow-sm ${loading ? "opacity-60" : ""}`}
    >
      {/* Explicit roles keep the table a table for assistive technology when
          narrow screens lay each row out as a card. */}
      <table role="table" className="w-full border-collapse text-left text-sm max-sm:block">
        <caption className="sr-only">{text.caption}</caption>
        <thead role="rowgroup" className="bg-neutral-100 text-neutral-800 max-sm:sr-only">
          <tr role="row">
            {[columns.email, columns.status, columns.consent, columns.subscribed, columns.changed].map((name) => (
              <th key={name} role="columnheader" scope="col" className="px-3 py-2 font-semibold">
                {name}
              </th>
            ))}
            <th role="columnheader" scope="col" className="px-3 py-2 text-right font-semibold">
              {columns.actions}
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-sm:block">
          {subscribers.map((row) => (
            <tr
              key={row.id}
              role="row"
              className="border-t border-neutral-200 align-top max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:px-3 max-sm:py-3 max-sm:first:border-t-0"
            >
              <td
                role="cell"
                className="px-3 py-2 font-medium wrap-anywhere text-neutral-900 max-sm:p-0 max-sm:text-base"
              >
                {row.email}
              </td>
              <td role="cell" className={`px-3 py-2 ${cardCell}`}>
                <CardLabel>{columns.status}</CardLabel>
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[row.status]}`}>
                  {text.statuses[row.status]}
                </span>
              </td>
              <td role="cell" className={`px-3 py-2 ${cardCell}`}>
                <CardLabel>{columns.consent}</CardLabel>
                {text.consents[row.consent]}
              </td>
              <td role="cell" className={`px-3 py-2 whitespace-nowrap ${cardCell}`}>
                <CardLabel>{columns.subscribed}</CardLabel>
                <time dateTime={row.createdAt}>{formatDate(row.createdAt)}</time>
              </td>
              <td role="cell" className={`px-3 py-2 ${cardCell}`}>
                <CardLabel>{columns.changed}</CardLabel>
                {changed(row)}
              </td>
              <td role="cell" className="px-3 py-0 text-right max-sm:p-0 max-sm:text-left">
                <RemoveSubscriber row={row} busy={busyId === row.id} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Remove": opens the question and the one button that removes; a form that works without the page's script. */
function RemoveSubscriber({ row, busy }: { row: SubscriberRow; busy: boolean }) {
  return (
    <details className="text-left">
      <summary className="inline-flex min-h-10 cursor-pointer items-center font-medium text-red-800 underline underline-offset-2">
        {text.remove}
        <span className="sr-only"> {row.email}</span>
      </summary>
      <Form method="post" className="mt-2 flex max-w-xs flex-col items-start gap-2">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="id" value={row.id} />
        <p className="break-words">{text.removeQuestion(row.email)}</p>
        <button
          type="submit"
          disabled={busy}
          className="min-h-10 rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          {busy ? text.removing : text.removeConfirm}
        </button>
      </Form>
    </details>
  );
}
