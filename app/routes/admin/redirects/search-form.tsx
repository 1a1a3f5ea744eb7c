import { Form } from "react-router";
import { redirectsText as text } from "~/content/redirects";
import { REDIRECT_LIMITS } from "~/lib/redirects";

/** The list's search (a GET form of the screen's address, so it works before the script runs) and the CSV export. */
export function SearchForm({ q, exportable }: { q: string; exportable: boolean }) {
  return (
    <Form method="get" role="search" aria-label={text.listName} className="mt-8 flex flex-wrap items-end gap-3">
      <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-1 sm:max-w-sm">
        <label htmlFor="redirects-q" className="text-sm font-semibold text-neutral-800">
          {text.searchLabel}
        </label>
        <input
          id="redirects-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={REDIRECT_LIMITS.to}
          autoComplete="off"
          spellCheck={false}
          className="h-11 w-full rounded-md border border-neutral-400 bg-white px-3 text-base text-neutral-900 focus:border-brand-600"
        />
      </div>
      <button
        type="submit"
        className="h-11 rounded-md border border-neutral-400 bg-white px-4 text-sm font-medium hover:bg-neutral-100"
      >
        {text.search}
      </button>
      {exportable && (
        <a
          href="/api/admin/redirects.csv"
          download
          className="inline-flex h-11 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800"
        >
          {text.exportCsv}
        </a>
      )}
    </Form>
  );
}
