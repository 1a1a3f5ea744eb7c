import { data } from "react-router";
import { SearchForm } from "~/components/site/search-form";
import { searchText } from "~/content/search";
import { Island } from "~/islands/island";
import { islandsPage } from "~/islands/page";
import { formatDate } from "~/lib/dates";
import {
  MAX_COUNTED_RESULTS,
  parseSearchPage,
  parseSearchQuery,
  SEARCH_PAGE_SIZE,
  searchHref,
  type Segment,
} from "~/lib/search-query";
import { pageMeta } from "~/lib/seo";
import { PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import {
  refundSearch,
  reserveSearch,
  SEARCH_RETRY_SECONDS,
  SearchBusyError,
  searchPosts,
} from "~/server/posts/index.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import type { Route } from "./+types/blog.search";
import { clientAddressContext, configContext, connectionContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";

/**
 * /blog/search?q=WORDS (docs/product/contract.md#search, ADR 042): server-rendered results of the
 * blog's full-text search, ten a page (?page=N), with the matched words
 * marked. No `q` (or only spaces) shows the form alone; a `q` longer than
 * MAX_QUERY_CHARS a message (400); one address's searches past
 * SEARCH_THROTTLE a message (429, ADR 048). The page shows the query as normalised
 * (spacing collapsed, lowercased), which is also its page-cache key.
 */
export const handle = islandsPage;

/**
 * The same for every visitor: kept by the page cache (as open-ended entries),
 * revalidated by browsers. A busy answer (503) or a throttled one (429, one
 * address's searches past SEARCH_THROTTLE, ADR 048) is kept by no one and
 * says when to come back.
 */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = loaderHeaders.get("Retry-After");
  return retryAfter
    ? { "Cache-Control": "no-store", "Retry-After": retryAfter }
    : { "Cache-Control": PUBLIC_CACHE_CONTROL };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.get(configContext);
  const { companyName, socialUrls } = await siteSettingsFor(request);
  const company = { name: companyName, socialUrls };
  const params = new URL(request.url).searchParams;
  const query = parseSearchQuery(params.get("q"));
  if (query.kind === "empty") return { state: "form" as const, company, siteUrl };
  if (query.kind === "too-long") return data({ state: "too-long" as const, company, siteUrl }, { status: 400 });
  const page = parseSearchPage(params.get("page"));
  if (page === undefined) throw new Response("Not found", { status: 404 });
  // Only a search that reaches the database counts (a query of punctuation has no words).
  const counts = query.terms.length > 0;
  if (counts) {
    const reservation = await reserveSearch(context.get(clientAddressContext));
    if (!reservation.ok) {
      return data(
        { state: "throttled" as const, q: query.text, company, siteUrl },
        { status: 429, headers: { "Retry-After": String(Math.ceil(reservation.retryAfterMs / 1000)) } },
      );
    }
  }
  let found: Awaited<ReturnType<typeof searchPosts>>;
  try {
    found = await searchPosts(context.get(connectionContext), query, { page, now: siteDate() });
  } catch (error) {
    if (!(error instanceof SearchBusyError)) throw error;
    if (counts) await refundSearch(context.get(clientAddressContext));
    return data(
      { state: "busy" as const, q: query.text, company, siteUrl },
      { status: 503, headers: { "Retry-After": String(SEARCH_RETRY_SECONDS) } },
    );
  }
  const { hits, counted } = found;
  const pages = Math.max(1, Math.ceil(Math.min(counted, MAX_COUNTED_RESULTS) / SEARCH_PAGE_SIZE));
  if (page > pages) throw new Response("Not found", { status: 404 });
  return {
    state: "results" as const,
    q: query.text,
    hits: hits.map((hit) => ({ ...hit, date: formatDate(hit.publishDate) })),
    counted,
    page,
    pages,
    company,
    siteUrl,
  };
}

/**
 * Every state of the page names the form, `/blog/search`, as its canonical
 * URL, and no title or description repeats the words searched for: anyone
 * can make and link a results page for any words, and search engines are
 * asked to list the one page, not one per query (ADR 042).
 */
export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  const q = data.state === "results" || data.state === "busy" || data.state === "throttled" ? data.q : undefined;
  const page = data.state === "results" ? data.page : 1;
  return pageMeta({
    title: searchText.title(q, page, data.company.name),
    description: searchText.description(data.company.name),
    canonical: `${data.siteUrl}/blog/search`,
  });
}

export default function BlogSearch({ loaderData }: Route.ComponentProps) {
  const q =
    loaderData.state === "results" || loaderData.state === "busy" || loaderData.state === "throttled"
      ? loaderData.q
      : "";
  return (
    <>
      <Island name="site-header" props={{ companyName: loaderData.company.name }} />
      <main id="main" className="mx-auto max-w-3xl px-4 py-12">
        <h1 className="text-4xl font-bold">{searchText.heading}</h1>
        <p className="mt-3 text-neutral-700">{searchText.intro}</p>
        <SearchForm q={q} className="mt-6" />
        {loaderData.state === "too-long" && (
          <p role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
            {searchText.tooLong}
          </p>
        )}
        {(loaderData.state === "busy" || loaderData.state === "throttled") && (
          <p role="alert" className="mt-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950">
            {loaderData.state === "busy" ? searchText.busy : searchText.throttled}
          </p>
        )}
        {loaderData.state === "results" && <Results {...loaderData} />}
      </main>
      <Island
        name="site-footer"
        props={{ companyName: loaderData.company.name, socialUrls: loaderData.company.socialUrls }}
      />
    </>
  );
}

type ResultsData = Extract<Route.ComponentProps["loaderData"], { state: "results" }>;

function Results({ q, hits, counted, page, pages }: ResultsData) {
  return (
    <section aria-labelledby="search-results-heading" className="mt-10">
      <h2 id="search-results-heading" className="text-2xl font-semibold">
        {searchText.resultsHeading(q)}
      </h2>
      <p role="status" className="mt-2 text-neutral-700">
        {`${counted === 0 ? searchText.noMatch(q) : searchText.count(counted)}${
          pages > 1 ? ` ${searchText.pageOf(page, pages)}.` : ""
        }`}
      </p>
      {counted === 0 ? (
        <p className="mt-4 text-neutral-700">
          {searchText.noMatchHint}{" "}
          <a href="/blog" className="font-medium text-brand-700 underline underline-offset-2">
            {searchText.browseAll}
          </a>
          .
        </p>
      ) : (
        <ol className="mt-6 flex flex-col gap-6" start={(page - 1) * SEARCH_PAGE_SIZE + 1}>
          {hits.map((hit) => (
            <li key={hit.slug} className="border-b border-neutral-200 pb-6">
              <h3 className="text-xl font-semibold leading-snug">
                <a href={`/blog/${hit.slug}`} className="text-brand-800 hover:underline">
                  <Marked segments={hit.title} />
                </a>
              </h3>
              <p className="mt-1 text-sm text-neutral-700">
                {hit.category && <span className="font-semibold text-brand-700">{hit.category}</span>}
                {hit.category && " · "}
                <time dateTime={hit.publishDate}>{hit.date}</time>
              </p>
              {hit.snippet.length > 0 && (
                <p className="mt-2 break-words text-neutral-800">
                  <Marked segments={hit.snippet} />
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {pages > 1 && (
        <nav aria-label={searchText.pagesLabel} className="mt-8 flex items-center justify-between gap-4">
          {page > 1 ? (
            <a
              href={searchHref(q, page - 1)}
              rel="prev"
              className="font-medium text-brand-700 underline underline-offset-2"
            >
              <span aria-hidden="true">← </span>
              {searchText.previous}
            </a>
          ) : (
            <span />
          )}
          {page < pages ? (
            <a
              href={searchHref(q, page + 1)}
              rel="next"
              className="font-medium text-brand-700 underline underline-offset-2"
            >
              {searchText.next}
              <span aria-hidden="true"> →</span>
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

/** Text with the matched words in <mark>; React escapes every piece. */
function Marked({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((segment, i) =>
        segment.mark ? (
          <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-neutral-900">
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
