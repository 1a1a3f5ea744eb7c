import { bookingPage } from "~/content/booking";

/** The class of the booking pages' main buttons (book, move, cancel). */
export const primaryButton =
  "min-h-11 rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 disabled:cursor-wait disabled:opacity-80";

const linkClass = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900";

/**
 * Earlier and Later dates (ADR 071): plain links to the same page with
 * `?from=`, so paging the slots works without JavaScript. A direction with
 * no bookable days has no link.
 */
export function DateLinks({ path, earlier, later }: { path: string; earlier: string | null; later: string | null }) {
  if (!earlier && !later) return null;
  return (
    <nav aria-label={bookingPage.datesNav} className="mt-6 flex items-center justify-between gap-4">
      {earlier ? (
        <a href={`${path}?from=${earlier}`} rel="prev" className={linkClass}>
          <span aria-hidden="true">← </span>
          {bookingPage.earlierDates}
        </a>
      ) : (
        <span />
      )}
      {later ? (
        <a href={`${path}?from=${later}`} rel="next" className={linkClass}>
          {bookingPage.laterDates}
          <span aria-hidden="true"> →</span>
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}
