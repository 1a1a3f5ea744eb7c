import type { ReactNode } from "react";
import { Link } from "react-router";
import { importText as text } from "~/content/import";
import type { ImportReport, ImportStatus } from "~/lib/import";
import { importHref } from "./view";

/** Narrow screens: each cell becomes a "label value" part of a card (as in the subscribers table), the numbers side by side. */
const cardCell = "max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2 max-sm:p-0";

function CardLabel({ children }: { children: ReactNode }) {
  // Hidden from assistive technology, which has the column header.
  return (
    <span aria-hidden="true" className="font-semibold text-neutral-700 sm:hidden">
      {children}
    </span>
  );
}

/** The status in words; the colour only repeats them. */
const STATUS_STYLE: Record<ImportStatus, string> = {
  running: "bg-amber-100 text-amber-900",
  done: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
};

/**
 * "Earlier imports": the last ones, newest first, each a link to its
 * report (the one shown above is marked), so an owner can look back at
 * what an import skipped after leaving the page.
 */
export function EarlierImports({ imports, shown }: { imports: ImportReport[]; shown: string | undefined }) {
  const { columns } = text;
  return (
    <section aria-labelledby="earlier-imports-heading" className="mt-10">
      <h2 id="earlier-imports-heading" className="text-xl font-semibold">
        {text.earlierHeading}
      </h2>
      {imports.length === 0 ? (
        <p className="mt-2 text-neutral-700">{text.none}</p>
      ) : (
        <div className="mt-3 rounded-lg border border-neutral-200 bg-white shadow-sm">
          {/* Explicit roles keep the table a table when narrow screens lay rows out as cards. */}
          <table role="table" className="w-full border-collapse text-left text-sm max-sm:block">
            <caption className="sr-only">{text.earlierCaption}</caption>
            <thead role="rowgroup" className="bg-neutral-100 text-neutral-800 max-sm:sr-only">
              <tr role="row">
                {[columns.file, columns.date, columns.status].map((name) => (
                  <th key={name} role="columnheader" scope="col" className="px-3 py-2 font-semibold">
                    {name}
                  </th>
                ))}
                {[columns.created, columns.skipped].map((name) => (
                  <th key={name} role="columnheader" scope="col" className="px-3 py-2 text-right font-semibold">
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup" className="max-sm:block">
              {imports.map((item) => (
                <tr
                  key={item.id}
                  role="row"
                  className="border-t border-neutral-200 align-top max-sm:grid max-sm:grid-cols-3 max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3 max-sm:first:border-t-0"
                >
                  <td
                    role="cell"
                    className="px-3 py-2 font-medium wrap-anywhere max-sm:col-span-3 max-sm:p-0 max-sm:text-base"
                  >
                    <Link
                      to={importHref(item.id)}
                      aria-current={item.id === shown ? "true" : undefined}
                      className="text-brand-800 underline underline-offset-2 aria-[current]:no-underline"
                    >
                      {item.fileName}
                    </Link>
                    {item.id === shown && <span className="font-normal text-neutral-700"> ({text.showing})</span>}
                  </td>
                  <td role="cell" className={`px-3 py-2 max-sm:col-span-3 ${cardCell}`}>
                    <CardLabel>{columns.date}</CardLabel>
                    <time dateTime={item.createdAt}>{text.startedOn(item.createdAt)}</time>
                  </td>
                  <td role="cell" className={`px-3 py-2 ${cardCell}`}>
                    {/* On a card the badge says it alone: no "Status" before it. */}
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[item.status]}`}>
                      {text.statuses[item.status]}
                    </span>
                  </td>
                  <td role="cell" className={`px-3 py-2 text-right tabular-nums max-sm:text-left ${cardCell}`}>
                    <CardLabel>{columns.created}</CardLabel>
                    {item.created.toLocaleString("en-US")}
                  </td>
                  <td role="cell" className={`px-3 py-2 text-right tabular-nums max-sm:text-left ${cardCell}`}>
                    <CardLabel>{columns.skipped}</CardLabel>
                    {item.skipped.toLocaleString("en-US")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
