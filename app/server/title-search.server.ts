import { sql, type ExpressionBuilder, type RawBuilder, type SqlBool } from "kysely";
import type { Db } from "./db/db.server";
import { isPostgres } from "./db/dialect.server";
import type { Database } from "./db/schema.server";
import { getLogger } from "./logger.server";

/**
 * The admin list's title filter (PRODUCT §3 `q`, ADR 026, ADR 030): the
 * posts whose title contains the text, ignoring case, every character taken
 * as itself. One meaning, `lower(title) like lower('%' || q || '%')` with
 * `%`, `_` and `\` escaped, served by a trigram index on each backend
 * (migration 009):
 * - PostgreSQL: that condition as it is; a GIN index of lower(title)'s
 *   trigrams (pg_trgm) serves it, and the planner chooses between the index
 *   and the list's own order from its statistics.
 * - SQLite: FTS5 with the trigram tokenizer over lower(title), which matches
 *   the same posts. Its count of the matches also picks how the page is read:
 *   few matches are read from the index and sorted; many are met soon
 *   enough by walking the list's order and testing each title.
 * A text of one or two characters has no trigram, so it reads every title,
 * on both backends, as the filter did before (ADR 030's measurements).
 */

/** Trigrams have three characters (Unicode code points, as SQLite and PostgreSQL count them). */
const TRIGRAM = 3;

/**
 * The most matches SQLite reads from the trigram index and sorts for one
 * page. Past it, matches are common enough that walking the list's order
 * index (which holds the title) reaches a page of them sooner. ADR 030.
 */
export const SORTED_MATCHES_MAX = 2_000;

export interface TitleFilter {
  /** The condition on `posts` that keeps the matching posts. */
  matches: (eb: ExpressionBuilder<Database, "posts">) => RawBuilder<SqlBool>;
  /** The number of matches, when finding the plan already counted them. */
  total?: number;
}

/** How to filter the admin's list by `text` (not empty). */
export async function titleFilter(db: Db, text: string): Promise<TitleFilter> {
  if (isPostgres(db) || [...text].length < TRIGRAM) return { matches: titleContains(text) };
  const total = await countTrigramMatches(db, text);
  return { total, matches: total <= SORTED_MATCHES_MAX ? inTrigramMatches(text) : titleContains(text) };
}

/**
 * Title contains `text`, ignoring case, with `%`, `_` and `\` taken as
 * themselves. One spelling for both backends: `lower()` on both sides (SQLite's
 * LIKE ignores ASCII case only, PostgreSQL's LIKE none), and an explicit
 * escape character (PostgreSQL's default, SQLite has none). The GIN index
 * (PostgreSQL) is on this very expression, lower(title).
 */
function titleContains(text: string) {
  const pattern = `%${text.replace(/[\\%_]/g, "\\$&")}%`;
  return (eb: ExpressionBuilder<Database, "posts">) =>
    sql<SqlBool>`lower(${eb.ref("title")}) like lower(${pattern}) escape '\\'`;
}

/**
 * The FTS5 query for `text`: one phrase, so every character is literal
 * (a `"` doubled), lowercased by SQLite's lower() as the indexed titles
 * were. Case-sensitive trigrams matched as a phrase are consecutive in the
 * title: the phrase matches exactly the titles that contain it.
 */
const trigramPhrase = (text: string) => sql<string>`'"' || replace(lower(${text}), '"', '""') || '"'`;

/** SQLite: the post is among the trigram index's matches (its rowid is the post's). */
function inTrigramMatches(text: string) {
  return () =>
    sql<SqlBool>`rowid in (select rowid from posts_title_search where posts_title_search match ${trigramPhrase(text)})`;
}

async function countTrigramMatches(db: Db, text: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*) as count from posts_title_search where posts_title_search match ${trigramPhrase(text)}
  `.execute(db);
  return Number(rows[0]!.count);
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
