import { useId } from "react";
import { analyticsText as text } from "~/content/analytics";

/**
 * One table of the Analytics screen: a caption, a header row, the first
 * column naming each row (a row header) and numbers after it. A long one
 * (the days) can start folded in a <details>. Long names break anywhere,
 * so a table fits a phone's width without scrolling sideways.
 */
export function NumbersTable({
  caption,
  hint,
  columns,
  rows,
  collapsed = false,
  empty = text.nothing,
  dense = false,
}: {
  caption: string;
  hint?: string;
  /** What an empty table says. */
  empty?: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  collapsed?: boolean;
  /** Many columns: smaller type and gaps on a phone, so the table still fits its width. */
  dense?: boolean;
}) {
  const captionId = useId();
  const cell = dense ? "pr-1.5 sm:pr-3" : "pr-3";
  const table = (
    <div className="mt-2">
      <table className={`w-full border-collapse ${dense ? "text-xs sm:text-sm" : "text-sm"}`}>
        <caption id={captionId} className={collapsed ? "sr-only" : "text-left text-lg font-semibold"}>
          {caption}
        </caption>
        <thead>
          <tr className="border-b border-neutral-300">
            {columns.map((column, i) => (
              <th key={column} scope="col" className={`py-2 ${cell} ${i === 0 ? "text-left" : "text-right"}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="py-2 text-neutral-700">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map(([name, ...numbers], i) => (
              <tr key={`${String(name)}-${i}`} className="border-b border-neutral-100">
                <th scope="row" className={`max-w-[20rem] py-1.5 ${cell} text-left font-normal break-all`}>
                  {name}
                </th>
                {numbers.map((value, j) => (
                  <td key={j} className={`py-1.5 ${cell} text-right tabular-nums`}>
                    {typeof value === "number" ? value.toLocaleString("en-US") : value}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
  if (collapsed) {
    return (
      <details className="mt-4 rounded-lg border border-neutral-200 bg-white p-3">
        <summary className="cursor-pointer font-semibold">{caption}</summary>
        {table}
      </details>
    );
  }
  return (
    <section className="mt-6">
      {table}
      {hint && <p className="mt-1 text-sm text-neutral-700">{hint}</p>}
    </section>
  );
}
