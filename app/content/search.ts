import { MAX_COUNTED_RESULTS, MAX_QUERY_CHARS } from "~/lib/search-query";

/** The blog search's texts (ADR 042): the form on /blog and /blog/search, and the results page. */
export const searchText = {
  label: "Search the blog",
  button: "Search",
  placeholder: "Words to find",
  heading: "Search the blog",
  resultsHeading: (q: string) => `Results for “${q}”`,
  count: (counted: number) =>
    counted > MAX_COUNTED_RESULTS
      ? `More than ${MAX_COUNTED_RESULTS} posts match.`
      : counted === 1
        ? "1 post matches."
        : `${counted} posts match.`,
  noMatch: (q: string) => `No posts match “${q}”.`,
  noMatchHint: "Try fewer or different words, or",
  browseAll: "browse all articles",
  busy: "The search is busy. Please try again in a moment.",
  throttled: "Too many searches from your address. Please try again in a minute.",
  tooLong: `That search is too long. Search for at most ${MAX_QUERY_CHARS} characters.`,
  intro: "Find articles by words in their title, summary, category or text.",
  pagesLabel: "Search result pages",
  previous: "Previous results",
  next: "More results",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  // The words searched for are on the page, never in its title or description:
  // anyone can link a results page for any words (ADR 042).
  title: (q: string | undefined, page: number, company: string) =>
    q ? `Search results${page > 1 ? ` (page ${page})` : ""} | ${company}` : `Search the blog | ${company}`,
  description: (company: string) => `Search the articles of ${company}.`,
};
