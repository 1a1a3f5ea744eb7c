import { pageWindow } from "~/lib/blog-pages";
import { followLink } from "~/lib/page-transition";

/** What the pager of a list of articles says. */
const PAGER_TEXT = {
  newer: "Newer articles",
  older: "Older articles",
  page: (n: number) => `Page ${n}`,
  loading: "Loading articles...",
};

/**
 * Crawlable links between the pages of a list of articles: newer, the page
 * numbers around the current one, older. /blog's and the category pages'
 * (ADR 041).
 */
export function ListPager({
  page,
  pages,
  href,
  label,
  text = PAGER_TEXT,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  /** The navigation landmark's name. */
  label: string;
  text?: typeof PAGER_TEXT;
}) {
  if (pages <= 1) return null;
  const pageLink = (n: number) => ({ href: href(n), ...followLink({ loading: text.loading }) });
  return (
    <nav aria-label={label} className="mt-10 flex flex-wrap items-center justify-between gap-4">
      {page > 1 ? (
        <a {...pageLink(page - 1)} rel="prev" className="font-medium text-brand-700 underline underline-offset-2">
          <span aria-hidden="true">← </span>
          {text.newer}
        </a>
      ) : (
        <span />
      )}
      <ol className="flex flex-wrap gap-2">
        {pageWindow(page, pages).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="inline-flex min-h-10 items-center px-1 text-neutral-600">
              …
            </li>
          ) : (
            <li key={n}>
              <a
                {...pageLink(n)}
                aria-current={n === page ? "page" : undefined}
                aria-label={text.page(n)}
                className={`inline-flex min-h-10 min-w-10 items-center justify-center rounded-md border px-3 ${
                  n === page
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-300 text-brand-800 hover:border-brand-700"
                }`}
              >
                {n}
              </a>
            </li>
          ),
        )}
      </ol>
      {page < pages ? (
        <a {...pageLink(page + 1)} rel="next" className="font-medium text-brand-700 underline underline-offset-2">
          {text.older}
          <span aria-hidden="true"> →</span>
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}
