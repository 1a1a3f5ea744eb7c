import { sql } from "kysely";
import { markTerms, MAX_COUNTED_RESULTS, SEARCH_PAGE_SIZE, type SearchQuery, type Segment } from "~/lib/search-query";
import { BoundedWork } from "../platform/bounded-work.server";
import type { Connection, Db } from "../db/db.server";
import { ReaderDeadlineError, sqliteReaderOf, type SqliteReader } from "../db/sqlite-reader.server";
import { addressKey, createThrottle, type Reservation, type Throttle } from "../platform/throttle.server";
import { throttleKeyMaterial } from "../identity/index.server";

/**
 * The blog's full-text search (ADR 042): public posts (published, their date
 * come, as /blog lists them, decided at query time) whose title, excerpt,
 * category or markdown hold every word of the query, the last word also as a
 * prefix; best first (title above excerpt and category above the body), then
 * newest (PostgreSQL: by publish date; SQLite: the later written, by rowid).
 * One interface, two implementations over the index of migration 017:
 * - SQLite: FTS5 (`posts_search`), ranked by bm25 with column weights, read
 *   on a worker thread (db/sqlite-reader.server.ts): ranking every match of
 *   a common word holds the CPU for tens to hundreds of milliseconds, which
 *   on the app's own connection was the event loop's (ADR 048);
 * - PostgreSQL: tsvectors ('simple' configuration) in `posts_search` with a
 *   GIN index, ranked by ts_rank with weights A (title), B, D (body).
 * The words come from parseSearchQuery (letters, digits and marks only, at
 * most MAX_TERMS), each quoted: no user syntax reaches either query language.
 * Snippets (FTS5 snippet(), ts_headline over a bounded prefix of the text) are
 * made for the page's results only; their markers are thrown away and the
 * words marked again in JavaScript (markTerms), so a post's own text can add
 * no markup and the highlighting is the same on both backends.
 */

interface SearchHit {
  slug: string;
  title: Segment[];
  snippet: Segment[];
  category: string;
  publishDate: string;
}

interface SearchResults {
  hits: SearchHit[];
  /** Matches counted, at most MAX_COUNTED_RESULTS + 1 (then "500+"). */
  counted: number;
}

type Words = Extract<SearchQuery, { kind: "words" }>;

/** Markers the databases put around matches, removed before the words are marked again. */
const START = "\uE000";
const STOP = "\uE001";
const MARKERS = /[\uE000\uE001]/g;
/** PostgreSQL's ts_headline reads at most this much of a post's markdown (it parses the whole text it is given). */
const HEADLINE_CHARS = 20_000;
/** The longest snippet shown. */
const SNIPPET_CHARS = 400;

/**
 * Searches a process runs at once, and admits in all (running or waiting):
 * a query over a word in every post costs tens of milliseconds of CPU, so a
 * flood of distinct queries (each a page-cache miss) waits here in a bounded
 * queue, and past it is refused at once (SearchBusyError: the page answers
 * 503 with Retry-After) rather than piling up without end. On SQLite the
 * worker thread runs one at a time; the second waits there.
 */
const SEARCH_CONCURRENCY = 2;
export const SEARCH_QUEUE = 32;
/** What a refused search's page asks a client to wait, in seconds (Retry-After). */
export const SEARCH_RETRY_SECONDS = 2;
const searches = new BoundedWork(SEARCH_QUEUE, SEARCH_CONCURRENCY);

export class SearchBusyError extends Error {
  override name = "SearchBusyError";
}

/**
 * Searches one client address may run (page-cache misses: a hit costs no
 * search and counts nothing), per window, across every process (ADR 048): a
 * visitor's searches and pages of results stay far below it; one address
 * sending distinct queries without end gets 429 instead of a core's worth of
 * ranking.
 */
export const SEARCH_THROTTLE = { points: 30, durationSeconds: 60 };

let throttle: Throttle | undefined;
/** Built once at start (the posts domain's init), not on the first search. */
export function initSearchThrottle(connection: Connection): void {
  throttle = createThrottle(connection, {
    name: "search-address",
    ...SEARCH_THROTTLE,
    keyMaterial: throttleKeyMaterial,
  });
}
function searchThrottle(): Throttle {
  if (!throttle) throw new Error("the posts domain's init() was not called at start (server/startup.ts)");
  return throttle;
}

/** Counts one search against a client address, before it runs; refused once the address's window is full. */
export function reserveSearch(clientAddress: string): Promise<Reservation> {
  return searchThrottle().reserve(addressKey(clientAddress));
}

/** Gives back a reserved search that did not run (the search was busy). */
export function refundSearch(clientAddress: string): Promise<void> {
  return searchThrottle().refund(addressKey(clientAddress));
}

/** One page (1-based) of results for `query` at `now`, and how many match (counted up to a bound). */
export async function searchPosts(
  connection: Connection,
  query: Words,
  options: { page: number; now: Date },
): Promise<SearchResults> {
  if (query.terms.length === 0) return { hits: [], counted: 0 };
  const admission = searches.tryAdmit();
  if (!admission) throw new SearchBusyError("Too many searches at once");
  try {
    return await admission.run(() => runSearch(connection, query, options));
  } catch (error) {
    // A search the reader gave up on (ADR 048) is answered as a busy one: try again later.
    if (error instanceof ReaderDeadlineError) throw new SearchBusyError(error.message);
    throw error;
  } finally {
    admission.release();
  }
}

async function runSearch(
  connection: Connection,
  query: Words,
  { page, now }: { page: number; now: Date },
): Promise<SearchResults> {
  const offset = (page - 1) * SEARCH_PAGE_SIZE;
  const at = now.toISOString();
  const rows =
    connection.kind === "postgres"
      ? await postgresPage(connection.db, query, at, offset)
      : await sqlitePage(connection.db, sqliteReaderOf(connection.sqlite), query, at, offset);
  return {
    counted: rows.counted,
    hits: rows.hits.map((row) => ({
      slug: row.slug,
      category: row.category,
      publishDate: row.publish_date,
      title: markTerms(row.title, query.terms, query.prefix),
      snippet: markTerms(plainSnippet(row.snippet), query.terms, query.prefix),
    })),
  };
}

interface Row {
  slug: string;
  title: string;
  category: string;
  publish_date: string;
  snippet: string;
}

/** FTS5: every word a quoted string (a `"` doubled, though words have none), the last a prefix query. */
function fts5Query({ terms, prefix }: Words): string {
  return terms
    .map((term, i) => `"${term.replace(/"/g, '""')}"${prefix && i === terms.length - 1 ? "*" : ""}`)
    .join(" AND ");
}

/**
 * tsquery: every word a quoted lexeme (words hold no quote or backslash), the
 * last with `:*` as a prefix; all of them (`&`) to match, any of them (`|`)
 * to rank by: ts_rank of an `&` query pairs every position of every word
 * with every other (21 s for ten common words over 5,000 posts, 130 ms with `|`).
 */
function tsQuery({ terms, prefix }: Words, operator: "&" | "|"): string {
  return terms
    .map((term, i) => `'${term.replace(/['\\]/g, "")}'${prefix && i === terms.length - 1 ? ":*" : ""}`)
    .join(` ${operator} `);
}

/**
 * SQLite. Public posts are taken from the (published, publish_date) index as
 * a set of rowids, so deciding which matches are public reads no post's row
 * (its date lies past its markdown and HTML); only the page's rows are read.
 * `+rowid`: the set is a filter on the full-text matches; offered to FTS5 as
 * a rowid constraint, SQLite ran the full-text query once per public post
 * (5 s for a common word with 10,000 posts, 25 ms as a filter). The queries
 * are compiled here and run by the reader's thread, one after the other.
 */
async function sqlitePage(db: Db, reader: SqliteReader, query: Words, at: string, offset: number) {
  const match = fts5Query(query);
  const publicRowids = sql`(select rowid from posts where published = 1 and publish_date <= ${at})`;
  const [count] = await reader.all<{ n: number }>(
    sql`select count(*) as n from (
      select rowid from posts_search where posts_search match ${match} and +rowid in ${publicRowids}
      limit ${MAX_COUNTED_RESULTS + 1}
    )`.compile(db),
  );
  const page = await reader.all<{ rowid: number }>(
    sql`
      select rowid, bm25(posts_search, 10.0, 4.0, 4.0, 1.0) as rank from posts_search
      where posts_search match ${match} and +rowid in ${publicRowids}
      order by rank, rowid desc limit ${SEARCH_PAGE_SIZE} offset ${offset}`.compile(db),
  );
  const counted = Number(count!.n);
  const rowids = page.map((row) => row.rowid);
  if (rowids.length === 0) return { counted, hits: [] };
  const rows = await reader.all<Row & { rowid: number }>(
    sql`
    select s.rowid as rowid, p.slug as slug, p.title as title, p.category as category,
           p.publish_date as publish_date,
           snippet(posts_search, 3, ${START}, ${STOP}, '…', 24) as snippet
    from posts_search s join posts p on p.rowid = s.rowid
    where posts_search match ${match} and s.rowid in (${sql.join(rowids)})`.compile(db),
  );
  const byRowid = new Map(rows.map((row) => [row.rowid, row]));
  // In the page's order; the same rank, the later written first (rowid: one order, so pages never overlap).
  // A post deleted between the two reads is left out.
  return { counted, hits: page.flatMap((row) => byRowid.get(row.rowid) ?? []) };
}

/**
 * PostgreSQL. The matches come from the GIN index; ts_rank reads each one's
 * stored tsvector, and ts_headline runs on the page's ten posts only, over
 * their first HEADLINE_CHARS characters.
 */
async function postgresPage(db: Db, query: Words, at: string, offset: number) {
  const tsquery = sql`to_tsquery('simple', ${tsQuery(query, "&")})`;
  const rankBy = sql`to_tsquery('simple', ${tsQuery(query, "|")})`;
  const matching = sql`posts_search s join posts p on p.id = s.post_id
    where s.document @@ ${tsquery} and p.published = 1 and p.publish_date <= ${at}`;
  const [count, page] = await Promise.all([
    sql<{
      n: string;
    }>`select count(*) as n from (select 1 from ${matching} limit ${MAX_COUNTED_RESULTS + 1}) found`.execute(db),
    sql<Row>`
      with ranked as (
        select p.id, ts_rank(s.document, ${rankBy}) as rank, p.publish_date from ${matching}
        order by rank desc, p.publish_date desc, p.id limit ${SEARCH_PAGE_SIZE} offset ${offset}
      )
      select p.slug, p.title, p.category, p.publish_date,
             ts_headline('simple', left(p.content, ${HEADLINE_CHARS}), ${tsquery},
                         ${`StartSel=${START}, StopSel=${STOP}, MaxWords=35, MinWords=15, MaxFragments=1`}) as snippet
      from ranked join posts p on p.id = ranked.id
      order by ranked.rank desc, ranked.publish_date desc, ranked.id`.execute(db),
  ]);
  return { counted: Number(count.rows[0]!.n), hits: page.rows };
}

/**
 * A snippet as plain text: no markers, the markdown's link targets and
 * emphasis characters left out, whitespace collapsed, at most SNIPPET_CHARS.
 */
function plainSnippet(snippet: string): string {
  const text = snippet
    .slice(0, SNIPPET_CHARS * 4)
    .replace(MARKERS, "")
    .replace(/\]\([^)\s]{0,500}\)/g, "")
    .replace(/[#*_`[\]|~]+/g, "")
    .replace(/-{3,}/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text;
}
