import { Link } from "react-router";
import { pageWindow } from "~/lib/blog-pages";

const step = "inline-flex min-h-10 items-center rounded-md border px-3 font-medium";

/**
 * Previous, page numbers (the first, the last and two either side of this
 * one) and Next for an admin list; links, so a page can be opened in a new
 * tab and Back returns to it. Nothing when there is one page.
 */
export function Pager({
  page,
  pages,
  hrefFor,
  label,
}: {
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
  /** The navigation landmark's name, e.g. "Pages of posts". */
  label: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
      {page > 1 ? (
        <Link
          to={hrefFor(page - 1)}
          rel="prev"
          className={`${step} border-neutral-300 bg-white text-brand-800 hover:border-brand-700`}
        >
          <span aria-hidden="true">←&nbsp;</span>Previous
        </Link>
      ) : (
        <span className={`${step} border-neutral-200 text-neutral-600`}>
          <span aria-hidden="true">←&nbsp;</span>Previous
        </span>
      )}
      {/* Narrow screens: Previous and Next on one line, the numbers below. */}
      <ol className="flex flex-wrap gap-1 max-sm:order-last max-sm:w-full max-sm:justify-center">
        {pageWindow(page, pages).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="inline-flex min-h-10 items-center px-1 text-neutral-600">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={hrefFor(n)}
                aria-current={n === page ? "page" : undefined}
                aria-label={`Page ${n}`}
                className={`inline-flex min-h-10 min-w-10 items-center justify-center rounded-md border px-2 ${
                  n === page
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-300 bg-white text-brand-800 hover:border-brand-700"
                }`}
              >
                {n.toLocaleString("en-US")}
              </Link>
            </li>
          ),
        )}
      </ol>
      {page < pages ? (
        <Link
          to={hrefFor(page + 1)}
          rel="next"
          className={`${step} border-neutral-300 bg-white text-brand-800 hover:border-brand-700`}
        >
          Next<span aria-hidden="true">&nbsp;→</span>
        </Link>
      ) : (
        <span className={`${step} border-neutral-200 text-neutral-600`}>
          Next<span aria-hidden="true">&nbsp;→</span>
        </span>
      )}
    </nav>
  );
}
