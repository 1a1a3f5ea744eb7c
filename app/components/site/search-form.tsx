import { searchText } from "~/content/search";
import { MAX_QUERY_CHARS } from "~/lib/search-query";

/**
 * The blog's search box (ADR 042): a plain GET form to /blog/search, so it
 * works without JavaScript; `q` is shown back in it on the results page.
 */
export function SearchForm({ q = "", className = "" }: { q?: string; className?: string }) {
  return (
    <form role="search" method="get" action="/blog/search" className={`flex flex-wrap items-end gap-2 ${className}`}>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <label htmlFor="blog-search-q" className="text-sm font-medium text-neutral-800">
          {searchText.label}
        </label>
        <input
          id="blog-search-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_QUERY_CHARS}
          placeholder={searchText.placeholder}
          className="min-h-11 w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600"
        />
      </div>
      <button
        type="submit"
        className="min-h-11 rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-600 focus:ring-offset-2"
      >
        {searchText.button}
      </button>
    </form>
  );
}
