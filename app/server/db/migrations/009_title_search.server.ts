import { sql, type Kysely } from "kysely";
import { isPostgres } from "../dialect.server";

/**
 * The admin's title filter ("title contains", ignoring case) gets an index
 * on each backend (ADR 030): a trigram index answers "contains" without
 * reading every title.
 */

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await addTitleTrigramIndex(db);
  else await addTitleSearchTable(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists posts_title_trgm_idx`.execute(db);
    return;
  }
  for (const trigger of ["insert", "update", "keys_update", "delete"]) {
    await sql`drop trigger ${sql.id(`posts_title_search_${trigger}`)}`.execute(db);
  }
  await sql`drop table posts_title_search_keys`.execute(db);
  await sql`drop table posts_title_search`.execute(db);
}

/**
 * SQLite: an FTS5 table of the lowercased titles with the trigram tokenizer,
 * one row per post under the post's rowid, kept in step by triggers, so every
 * way a post is written (the API, copy-database, a script's SQL) keeps it
 * current. Case-sensitive trigrams of lower(title), queried with lower(q),
 * match exactly what `lower(title) like lower(q)` matches: SQLite's lower()
 * folds ASCII letters on both sides, as the filter did before (ADR 026).
 * Beside it, under the same rowid, each post's sort keys (id, publish_date,
 * lower(title)) in a small table: a page is sorted from its matches without
 * reading the posts' rows, whose date lies past the markdown and HTML, and
 * faster than from the FTS5 table's own columns (ADR 030).
 */
async function addTitleSearchTable(db: Kysely<any>) {
  // contentless_delete: rows are deleted by rowid alone (SQLite 3.43).
  await sql`create virtual table posts_title_search using fts5(
    title, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
  )`.execute(db);
  await sql`create table posts_title_search_keys (
    post_rowid integer primary key, id varchar(36) not null, publish_date varchar(30) not null, title text not null
  )`.execute(db);
  await sql`insert into posts_title_search (rowid, title) select rowid, lower(title) from posts`.execute(db);
  // In rowid order (SQLite would read an index that holds these columns, in its order): full pages.
  await sql`insert into posts_title_search_keys (post_rowid, id, publish_date, title)
    select rowid, id, publish_date, lower(title) from posts order by rowid`.execute(db);
  // One merged index for the posts already there instead of the bulk insert's many segments.
  await sql`insert into posts_title_search (posts_title_search) values ('optimize')`.execute(db);
  await sql`create trigger posts_title_search_insert after insert on posts begin
    insert into posts_title_search (rowid, title) values (new.rowid, lower(new.title));
    insert into posts_title_search_keys (post_rowid, id, publish_date, title)
    values (new.rowid, new.id, new.publish_date, lower(new.title));
  end`.execute(db);
  await sql`create trigger posts_title_search_update after update of title on posts
  when new.title is not old.title begin
    update posts_title_search set title = lower(new.title) where rowid = old.rowid;
  end`.execute(db);
  await sql`create trigger posts_title_search_keys_update after update of id, publish_date, title on posts
  when new.id is not old.id or new.publish_date is not old.publish_date or new.title is not old.title begin
    update posts_title_search_keys set id = new.id, publish_date = new.publish_date, title = lower(new.title)
    where post_rowid = old.rowid;
  end`.execute(db);
  await sql`create trigger posts_title_search_delete after delete on posts begin
    delete from posts_title_search where rowid = old.rowid;
    delete from posts_title_search_keys where post_rowid = old.rowid;
  end`.execute(db);
}

/**
 * PostgreSQL: a GIN index of lower(title)'s trigrams (pg_trgm), which serves
 * the filter's `lower(title) like lower(q)` as it is written. pg_trgm is a
 * trusted extension: a user with CREATE on the database (its owner, for one)
 * may create it. Where it cannot be created (no such right, or the server
 * lacks the extension), the migration still succeeds and the filter reads
 * every title, as before; the server says so at every start and names the
 * two statements that add the index (ADR 030, title-search.server.ts).
 */
async function addTitleTrigramIndex(db: Kysely<any>) {
  // A failed statement would abort the migrations' transaction: try it inside a savepoint.
  await sql`savepoint pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`release savepoint pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db);
  }
  // The extension may live in a schema outside the search path (some hosts keep extensions apart).
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema
    from pg_opclass c
    join pg_namespace n on n.oid = c.opcnamespace
    join pg_am a on a.oid = c.opcmethod
    where c.opcname = 'gin_trgm_ops' and a.amname = 'gin'
  `.execute(db);
  if (!rows[0]) return;
  await sql`create index posts_title_trgm_idx on posts
    using gin (lower(title) ${sql.id(rows[0].schema, "gin_trgm_ops")})`.execute(db);
}
