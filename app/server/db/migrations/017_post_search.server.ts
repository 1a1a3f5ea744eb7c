import { sql, type Kysely } from "kysely";
import { isPostgres } from "../dialect.server";

/**
 * The blog's full-text search (ADR 042): an index of each post's title,
 * excerpt, category and markdown, kept in step by triggers on posts; and
 * /blog/search is the search page, so a post may no longer be called "search".
 */

export async function up(db: Kysely<any>): Promise<void> {
  await renameReservedSlugs(db as Kysely<TablesThen>);
  if (isPostgres(db)) await addPostgresSearch(db);
  else await addSqliteSearch(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger posts_search_sync on posts`.execute(db);
    await sql`drop function posts_search_sync()`.execute(db);
    await sql`drop table posts_search`.execute(db);
    await sql`drop function posts_search_document(text, text, text, text)`.execute(db);
    return;
  }
  for (const trigger of ["insert", "update", "delete"]) {
    await sql`drop trigger ${sql.id(`posts_search_${trigger}`)}`.execute(db);
  }
  await sql`drop table posts_search`.execute(db);
}

/** The tables as they were at this migration: the columns its data fix reads and writes. */
interface TablesThen {
  posts: { id: string; slug: string };
}

/** The blog's own routes under /blog/ that a post's slug would hide. */
const RESERVED_SLUGS: readonly string[] = ["search"];

/**
 * A post whose slug is a route of the blog's own gets the first free slug of
 * `search-post`, `search-post-2`, ... A frozen copy of renameReservedSlugs
 * and RESERVED_SLUGS as this migration shipped
 * (app/server/reserved-slugs.server.ts, app/lib/post-rules.ts): the
 * migration does what it did whatever those become (ADR 050).
 */
async function renameReservedSlugs(db: Kysely<TablesThen>): Promise<void> {
  for (const reserved of RESERVED_SLUGS) {
    const taken = await db.selectFrom("posts").select("id").where("slug", "=", reserved).executeTakeFirst();
    if (!taken) continue;
    for (let n = 1; ; n++) {
      const slug = n === 1 ? `${reserved}-post` : `${reserved}-post-${n}`;
      const clash = await db.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
      if (clash) continue;
      await db.updateTable("posts").set({ slug }).where("id", "=", taken.id).execute();
      break;
    }
  }
}

/**
 * SQLite: an FTS5 table over the posts' own columns (external content, so
 * snippet() reads the text from posts), one row per post under its rowid,
 * kept in step by triggers like the title index (migration 009), so every way
 * a post is written (the API, copy-database, a restore, a script's SQL)
 * keeps it current. unicode61 folds case and removes diacritics; no stemming
 * (PostgreSQL uses the 'simple' configuration: the same words match on both).
 * Two- and three-character prefixes are indexed for the last word's prefix
 * query (search.server.ts).
 */
async function addSqliteSearch(db: Kysely<any>) {
  await sql`create virtual table posts_search using fts5(
    title, excerpt, category, content,
    content = 'posts', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  await sql`insert into posts_search (posts_search) values ('rebuild')`.execute(db);
  await sql`create trigger posts_search_insert after insert on posts begin
    insert into posts_search (rowid, title, excerpt, category, content)
    values (new.rowid, new.title, new.excerpt, new.category, new.content);
  end`.execute(db);
  await sql`create trigger posts_search_update after update of title, excerpt, category, content on posts
  when new.title is not old.title or new.excerpt is not old.excerpt
    or new.category is not old.category or new.content is not old.content begin
    insert into posts_search (posts_search, rowid, title, excerpt, category, content)
    values ('delete', old.rowid, old.title, old.excerpt, old.category, old.content);
    insert into posts_search (rowid, title, excerpt, category, content)
    values (new.rowid, new.title, new.excerpt, new.category, new.content);
  end`.execute(db);
  await sql`create trigger posts_search_delete after delete on posts begin
    insert into posts_search (posts_search, rowid, title, excerpt, category, content)
    values ('delete', old.rowid, old.title, old.excerpt, old.category, old.content);
  end`.execute(db);
}

/**
 * PostgreSQL: each post's tsvector ('simple' configuration; title weight A,
 * excerpt and category B, markdown D, of its first 200,000 characters,
 * so no post's vector nears the 1 MB limit) in a table beside
 * posts with a GIN index, written by a trigger on every insert and on every
 * update of those columns, deleted with its post (ADR 042).
 */
async function addPostgresSearch(db: Kysely<any>) {
  await sql`create function posts_search_document(title text, excerpt text, category text, content text)
  returns tsvector language sql immutable parallel safe as $$
    select setweight(to_tsvector('simple', title), 'A')
      || setweight(to_tsvector('simple', excerpt), 'B')
      || setweight(to_tsvector('simple', category), 'B')
      || setweight(to_tsvector('simple', left(content, 200000)), 'D')
  $$`.execute(db);
  await sql`create table posts_search (
    post_id varchar(36) primary key references posts (id) on delete cascade on update cascade,
    document tsvector not null
  )`.execute(db);
  await sql`insert into posts_search (post_id, document)
    select id, posts_search_document(title, excerpt, category, content) from posts`.execute(db);
  await sql`create index posts_search_document_idx on posts_search using gin (document)`.execute(db);
  await sql`create function posts_search_sync() returns trigger language plpgsql as $$
  begin
    insert into posts_search (post_id, document)
    values (new.id, posts_search_document(new.title, new.excerpt, new.category, new.content))
    on conflict (post_id) do update set document = excluded.document;
    return null;
  end
  $$`.execute(db);
  await sql`create trigger posts_search_sync after insert or update of title, excerpt, category, content on posts
    for each row execute function posts_search_sync()`.execute(db);
}
