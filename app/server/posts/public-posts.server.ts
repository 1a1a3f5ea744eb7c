import { type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { isWellFormedSlug } from "~/lib/slug";
import type { Connection, Db } from "../db/db.server";
import type { Database } from "../db/schema.server";
import {
  ARTICLE_COLUMNS,
  POST_COLUMNS,
  SUMMARY_COLUMNS,
  toArticle,
  toPost,
  toSummary,
  type Article,
  type Neighbour,
  type Post,
  type PostSummary,
  type PostUrl,
} from "./post-shape.server";
import {
  anchorAtOrAfterDate,
  anchorAtOrBeforeIndex,
  currentListShape,
  type Anchor,
  type PublicListShape,
} from "./public-list.server";

/**
 * Every read of public posts: the pages, the public API and the feeds. A post
 * is public when it is published and its publishDate has come; `now` is taken
 * per request, so a scheduled post appears at its moment in every process.
 * Lists are newest first (`newestFirst`). Each query selects only the
 * columns of its shape: no markdown source or HTML in lists, no HTML in the API.
 * How many posts the list holds and where in it a post or a page starts come
 * from the list's shape (public-list.server.ts), not from counting the list.
 *
 * The admin's reads (posts.server.ts) share the API's shape and the order.
 */

interface ArticleInList {
  article: Article;
  /** The newer article ("Previous" of docs/product/interface.md#in-place-article: the list is newest first); null for the first. */
  previous: Neighbour | null;
  /** The older article ("Next"); null for the last. */
  next: Neighbour | null;
  /** 0-based index in the public list, newest first. */
  index: number;
}

/**
 * The order of every list of posts: newest publishDate first, then by id, so
 * posts of the same moment keep one order. `backward` walks it the other way
 * (to the nearest newer post).
 */
export function newestFirst<O>(
  query: SelectQueryBuilder<Database, "posts", O>,
  direction: "forward" | "backward" = "forward",
) {
  const backward = direction === "backward";
  return query.orderBy("publish_date", backward ? "asc" : "desc").orderBy("id", backward ? "desc" : "asc");
}

/**
 * Posts before and after (date, id) in `newestFirst` order. Each also bounds
 * publish_date on its own, so the database reads the index from that date on
 * (posts_order_idx) rather than filtering every row.
 */
const newerThan = (date: string, id: string) => (eb: ExpressionBuilder<Database, "posts">) =>
  eb.and([eb("publish_date", ">=", date), eb.or([eb("publish_date", ">", date), eb("id", "<", id)])]);
const olderThan = (date: string, id: string) => (eb: ExpressionBuilder<Database, "posts">) =>
  eb.and([eb("publish_date", "<=", date), eb.or([eb("publish_date", "<", date), eb("id", ">", id)])]);

/** Public: published, and publishDate has come (scheduled posts wait). */
export function publicPosts(db: Db, now: Date) {
  return db.selectFrom("posts").where("published", "=", 1).where("publish_date", "<=", now.toISOString());
}

interface Page {
  limit: number;
  offset: number;
  now: Date;
  /**
   * The list's shape at `now`: the page is read from the nearest anchor at or
   * before `offset`, so a page deep in the list costs what an early one does.
   */
  shape?: PublicListShape;
}

/**
 * Public posts from list index `offset` on (their order is `newestFirst`'s),
 * and how many of them to skip. From an anchor, the posts of its publish date
 * and older: they are public (its date has come) and `before` come first.
 */
function publicFrom(db: Db, { offset, now, shape }: Omit<Page, "limit">) {
  const anchor = shape && anchorAtOrBeforeIndex(shape, offset);
  if (!anchor) return { posts: publicPosts(db, now), skip: offset };
  return { posts: publicFromAnchor(db, anchor), skip: offset - anchor.before };
}

/** Published posts of an anchor's publish date and older: all public, since its date has come. */
function publicFromAnchor(db: Db, anchor: Anchor) {
  return db.selectFrom("posts").where("published", "=", 1).where("publish_date", "<=", anchor.date);
}

/** One page of public summaries: the blog's cards, the landing page's carousel. */
export async function listPublicSummaries(db: Db, { limit, ...from }: Page): Promise<PostSummary[]> {
  const { posts, skip } = publicFrom(db, from);
  const rows = await newestFirst(posts.select(SUMMARY_COLUMNS)).limit(limit).offset(skip).execute();
  return rows.map(toSummary);
}

/** One page of public posts as GET /api/posts answers. */
export async function listPublicPosts(db: Db, { limit, ...from }: Page): Promise<Post[]> {
  const { posts, skip } = publicFrom(db, from);
  const rows = await newestFirst(posts.select(POST_COLUMNS)).limit(limit).offset(skip).execute();
  return rows.map(toPost);
}

/** A public post as GET /api/posts/{slug} answers; undefined for an unknown, draft or scheduled slug. */
export async function findPublicPost(db: Db, slug: string, now: Date): Promise<Post | undefined> {
  // Every stored slug is well formed; anything else (a NUL, a 100 KB segment) names no post.
  if (!isWellFormedSlug(slug)) return undefined;
  const row = await publicPosts(db, now).select(POST_COLUMNS).where("slug", "=", slug).executeTakeFirst();
  return row && toPost(row);
}

/**
 * A public article with its place in the list: the neighbours Previous/Next
 * lead to and its index (to find its page). Undefined for an unknown, draft
 * or scheduled slug.
 */
export async function findPublicArticle(
  connection: Connection,
  slug: string,
  now: Date,
): Promise<ArticleInList | undefined> {
  if (!isWellFormedSlug(slug)) return undefined;
  const { db } = connection;
  const row = await publicPosts(db, now).select(ARTICLE_COLUMNS).where("slug", "=", slug).executeTakeFirst();
  if (!row) return undefined;
  const newer = newerThan(row.publish_date, row.id);
  const older = olderThan(row.publish_date, row.id);
  // Posts older than a public article are public: `older` is their one upper
  // bound on publish_date (given two, SQLite read the index from the later).
  const [previous, next, index] = await Promise.all([
    newestFirst(publicPosts(db, now).select(["slug", "title"]).where(newer), "backward")
      .limit(1)
      .executeTakeFirst(),
    newestFirst(db.selectFrom("posts").where("published", "=", 1).select(["slug", "title"]).where(older))
      .limit(1)
      .executeTakeFirst(),
    currentListShape(connection, now).then((shape) => indexOf(db, shape, row, now)),
  ]);
  return {
    article: toArticle(row),
    previous: previous ?? null,
    next: next ?? null,
    index,
  };
}

/**
 * A public post's index in the list: the posts before the nearest anchor of
 * its publish date or later, and the newer posts from that anchor on (at most
 * about ANCHOR_SPACING index entries). A post newer than the shape's newest
 * (published since the shape was read) counts from the top.
 */
async function indexOf(db: Db, shape: PublicListShape, post: { publish_date: string; id: string }, now: Date) {
  const anchor = anchorAtOrAfterDate(shape, post.publish_date);
  const row = await (anchor ? publicFromAnchor(db, anchor) : publicPosts(db, now))
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where(newerThan(post.publish_date, post.id))
    .executeTakeFirstOrThrow();
  return (anchor?.before ?? 0) + Number(row.count);
}

/** The newest public posts with their HTML, for the RSS feed; posts hidden from search engines are left out. */
export async function listFeedArticles(db: Db, { limit, now }: { limit: number; now: Date }): Promise<Article[]> {
  const rows = await newestFirst(publicPosts(db, now).select(ARTICLE_COLUMNS).where("noindex", "=", 0))
    .limit(limit)
    .execute();
  return rows.map(toArticle);
}

/**
 * Public posts' addresses and last changes, newest first, one sitemap file's
 * worth at a time. The file's share of the list is counted over every public
 * post (the list's shape places it); a post hidden from search engines is
 * then left out, so a file may list fewer than its share.
 */
export async function listPublicUrls(db: Db, { limit, ...from }: Page): Promise<PostUrl[]> {
  const { posts, skip } = publicFrom(db, from);
  const rows = await newestFirst(posts.select(["slug", "publish_date", "updated_at", "noindex"]))
    .limit(limit)
    .offset(skip)
    .execute();
  return rows.filter((row) => !row.noindex).map((row) => ({ slug: row.slug, lastModified: lastModified(row) }));
}

/** A scheduled post edited before its moment was "modified" when it went public. */
export const lastModified = (row: { publish_date: string; updated_at: string }) =>
  row.updated_at > row.publish_date ? row.updated_at : row.publish_date;

/** The latest `lastModified` of any public post (the blog's list changed then), or undefined with none. */
export async function lastPublicChange(db: Db, now: Date): Promise<string | undefined> {
  const row = await publicPosts(db, now)
    .select((eb) => [eb.fn.max("publish_date").as("publish_date"), eb.fn.max("updated_at").as("updated_at")])
    .executeTakeFirst();
  return row?.publish_date && row.updated_at
    ? lastModified({ publish_date: String(row.publish_date), updated_at: String(row.updated_at) })
    : undefined;
}
