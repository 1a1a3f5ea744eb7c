import { containsPattern } from "../db/like.server";
import { sql, type ExpressionBuilder, type RawBuilder, type SqlBool } from "kysely";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import type { Database } from "../db/schema.server";
import { getLogger } from "../platform/logger.server";

/**
 * The admin list's title filter (`q` of docs/product/contract.md#the-calls, ADR 026, ADR 030): the
 * posts whose title contains the text, ignoring case, every character taken
 * as itself. One meaning, `lower(title) like lower('%' || q || '%')` with
 * `%`, `_` and `\` escaped, served by a trigram index on each backend
 * (migration 009):
 * - PostgreSQL: that condition as it is; a GIN index of lower(title)'s
 *   trigrams (pg_trgm) serves it.
 * - SQLite: FTS5 with the trigram tokenizer over lower(title), which matches
 *   the same posts.
 * A text of one or two characters has no trigram: on both backends it tests
 * every title, as the filter did before.
 *
 * How a page is read depends on how many posts match, which neither database
 * can guess well (a rare text's matches may all sit at the far end of the
 * list's order), so the filter first counts them, up to SORTED_MATCHES_MAX + 1:
 * - at most SORTED_MATCHES_MAX: that is the count, and a page is sorted from
 *   the matches' sort keys alone (fewMatches);
 * - more: the list is read as before (ADR 026): the count tests every title
 *   in an index, and the page walks the list's order, where such common
 *   matches come soon.
 */

/** Trigrams have three characters (Unicode code points, as SQLite and PostgreSQL count them). */
const TRIGRAM = 3;

/**
 * The most matches counted in the index and sorted for a page. Each costs
 * about a microsecond to find and to sort, where testing every title takes
 * about 5 ms with 100,000 posts, and a common text has matches early in
 * any order. ADR 030.
 */
export const SORTED_MATCHES_MAX = 2_000;

type PostsCondition = (eb: ExpressionBuilder<Database, "posts">) => RawBuilder<SqlBool>;

interface TitleFilter {
  text: string;
  /** The condition on `posts` that keeps the matching posts. */
  matches: PostsCondition;
  /** When at most SORTED_MATCHES_MAX posts match: their number. */
  few?: number;
}

/** How to filter the admin's list by `text` (not empty). */
export async function titleFilter(db: Db, text: string): Promise<TitleFilter> {
  const matches = titleContains(text);
  const atMost = SORTED_MATCHES_MAX + 1;
  const found = usesTrigramTable(db, text)
    ? await countTrigramMatches(db, text, atMost)
    : await countUpTo(db, matches, atMost);
  return found > SORTED_MATCHES_MAX ? { text, matches } : { text, matches, few: found };
}

/**
 * The matches' ids and sort keys (`id`, `publish_date`, `title` lowercased
 * or not), to sort a page from when a filter has `few` matches:
 * - SQLite, three characters or more: the trigram index's matches, their
 *   keys read from the table beside it, so no post's row is read (its date
 *   lies past its markdown and HTML: reading 1,111 of them took 6 ms);
 * - otherwise the posts that meet the condition. PostgreSQL gets them first
 *   (a materialized common table expression), so its planner cannot choose
 *   to walk the list's order index instead, as it does when it takes a rare
 *   title's matches to be spread evenly: for "post 42" with 100,000
 *   generated posts that walk read 57,000 index entries. SQLite reads one
 *   or two characters' matches from the order index, which holds the keys.
 */
export function fewMatches(db: Db, filter: TitleFilter) {
  if (usesTrigramTable(db, filter.text)) {
    const matching = sql<number>`(select rowid from posts_title_search where posts_title_search match ${trigramPhrase(filter.text)})`;
    return db
      .with("matches", (from) =>
        from
          .selectFrom("posts_title_search_keys")
          .select(["id", "publish_date", "title"])
          .where("post_rowid", "in", matching),
      )
      .selectFrom("matches");
  }
  return db
    .with(
      (cte) => (isPostgres(db) ? cte("matches").materialized() : cte("matches")),
      (from) => from.selectFrom("posts").select(["id", "publish_date", "title"]).where(filter.matches),
    )
    .selectFrom("matches");
}

/** SQLite's trigram table answers texts of three characters or more; PostgreSQL's GIN index is used by the planner. */
function usesTrigramTable(db: Db, text: string): boolean {
  return !isPostgres(db) && [...text].length >= TRIGRAM;
}

/**
 * Title contains `text`, ignoring case, with `%`, `_` and `\` taken as
 * themselves. One spelling for both backends: `lower()` on both sides (SQLite's
 * LIKE ignores ASCII case only, PostgreSQL's LIKE none), and an explicit
 * escape character (PostgreSQL's default, SQLite has none). The GIN index
 * (PostgreSQL) is on this very expression, lower(title).
 */
function titleContains(text: string): PostsCondition {
  return (eb) => sql<SqlBool>`lower(${eb.ref("title")}) like lower(${containsPattern(text)}) escape '\\'`;
}

/**
 * SQLite: the FTS5 query for `text`, one phrase, so every character is
 * literal (a `"` doubled), lowercased by SQLite's lower() as the indexed
 * titles were. Case-sensitive trigrams matched as a phrase are consecutive
 * in the title: the phrase matches exactly the titles that contain it.
 */
const trigramPhrase = (text: string) => sql<string>`'"' || replace(lower(${text}), '"', '""') || '"'`;

/** SQLite: the number of matches, counting no further than `atMost`, in the index alone. */
async function countTrigramMatches(db: Db, text: string, atMost: number): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*) as count from (
      select rowid from posts_title_search where posts_title_search match ${trigramPhrase(text)} limit ${atMost}
    )
  `.execute(db);
  return Number(rows[0]!.count);
}

/** The number of posts that meet `condition`, counting no further than `atMost`. */
async function countUpTo(db: Db, condition: PostsCondition, atMost: number): Promise<number> {
  const row = await db
    .selectFrom((from) => from.selectFrom("posts").select("id").where(condition).limit(atMost).as("found"))
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * PostgreSQL: says at start when the trigram index is missing (migration 009
 * could not create pg_trgm), with the statements that add it. Without it
 * the filter is right but reads every title.
 */
export async function warnIfTitleSearchUnindexed(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{
    found: string | null;
  }>`select to_regclass('posts_title_trgm_idx')::text as found`.execute(db);
  if (rows[0]?.found) return;
  getLogger().warn(
    "The admin's title filter has no index: this database lacks PostgreSQL's pg_trgm extension and its user may not create it. " +
      "A superuser or the database owner can add it, in this database: CREATE EXTENSION IF NOT EXISTS pg_trgm; " +
      "CREATE INDEX posts_title_trgm_idx ON posts USING gin (lower(title) gin_trgm_ops); " +
      "until then the filter reads every title (ADR 030).",
  );
}
