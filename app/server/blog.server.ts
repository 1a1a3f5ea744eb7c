import { sql, type ExpressionBuilder } from "kysely";
import { isWellFormedSlug } from "~/lib/slug";
import type { Db } from "./db/db.server";
import type { Database } from "./db/schema.server";
import { publicPosts } from "./posts.server";

/**
 * Queries behind the public blog pages and feeds. Each selects only the
 * columns its page shows (no markdown source, no HTML in lists) and takes
 * `now` from the request, so scheduled posts appear on time in every process
 * without a cache to invalidate.
 */

/** What a card in the list shows. */
export interface PostSummary {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  author: string;
  readTime: string;
  publishDate: string;
  headerImage: string | null;
}

/** An article page: the summary, its stored sanitised HTML and dates. */
export interface Article extends PostSummary {
  contentHtml: string;
  updatedAt: string;
}

export interface Neighbour {
  slug: string;
  title: string;
}

export interface ArticleInList {
  article: Article;
  /** The newer article (SPEC's "Previous": the list is newest first); null for the first. */
  previous: Neighbour | null;
  /** The older article ("Next"); null for the last. */
  next: Neighbour | null;
  /** 0-based index in the public list, newest first. */
  index: number;
  total: number;
}

const summaryColumns = [
  "id",
  "slug",
  "title",
  "excerpt",
  "category",
  "author",
  "read_time",
  "publish_date",
  "header_image",
] as const;

type SummaryRow = {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  author: string;
  read_time: string;
  publish_date: string;
  header_image: string | null;
};

function toSummary(row: SummaryRow): PostSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    category: row.category,
    author: row.author,
    readTime: row.read_time,
    publishDate: row.publish_date,
    headerImage: row.header_image,
  };
}

/** One page of the public list, newest first (same order as GET /api/posts). */
export async function listPublicSummaries(
  db: Db,
  { limit, offset, now }: { limit: number; offset: number; now: Date },
): Promise<PostSummary[]> {
  const rows = await publicPosts(db, now)
    .select(summaryColumns)
    .orderBy("publish_date", "desc")
    .orderBy("id")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(toSummary);
}

/**
 * A public article with its place in the list: the neighbours Previous/Next
 * lead to, its index (to find its page) and the total. Undefined for an
 * unknown, draft or scheduled slug.
 */
export async function findPublicArticle(db: Db, slug: string, now: Date): Promise<ArticleInList | undefined> {
  // Every stored slug is well formed; anything else (a NUL, a 100 KB segment) names no post.
  if (!isWellFormedSlug(slug)) return undefined;
  const row = await publicPosts(db, now)
    .select([...summaryColumns, "content_html", "updated_at"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (!row) return undefined;
  const date = row.publish_date;
  const id = row.id;
  // The list is ordered by (publish_date desc, id asc); "newer" comes before.
  const newer = (eb: ExpressionBuilder<Database, "posts">) =>
    eb.or([eb("publish_date", ">", date), eb.and([eb("publish_date", "=", date), eb("id", "<", id)])]);
  const older = (eb: ExpressionBuilder<Database, "posts">) =>
    eb.or([eb("publish_date", "<", date), eb.and([eb("publish_date", "=", date), eb("id", ">", id)])]);
  const [previous, next, before, total] = await Promise.all([
    publicPosts(db, now)
      .select(["slug", "title"])
      .where(newer)
      .orderBy("publish_date", "asc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
    publicPosts(db, now)
      .select(["slug", "title"])
      .where(older)
      .orderBy("publish_date", "desc")
      .orderBy("id", "asc")
      .limit(1)
      .executeTakeFirst(),
    publicPosts(db, now)
      .select(sql<number>`count(*)`.as("count"))
      .where(newer)
      .executeTakeFirstOrThrow(),
    publicPosts(db, now).select(sql<number>`count(*)`.as("count")).executeTakeFirstOrThrow(),
  ]);
  return {
    article: { ...toSummary(row), contentHtml: row.content_html, updatedAt: row.updated_at },
    previous: previous ?? null,
    next: next ?? null,
    index: Number(before.count),
    total: Number(total.count),
  };
}

/** The newest public posts with their HTML, for the RSS feed. */
export async function listFeedArticles(db: Db, { limit, now }: { limit: number; now: Date }): Promise<Article[]> {
  const rows = await publicPosts(db, now)
    .select([...summaryColumns, "content_html", "updated_at"])
    .orderBy("publish_date", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...toSummary(row), contentHtml: row.content_html, updatedAt: row.updated_at }));
}

/** Every public post's slug and last change, for the sitemap. */
export async function listPublicUrls(db: Db, now: Date): Promise<Array<{ slug: string; lastModified: string }>> {
  const rows = await publicPosts(db, now)
    .select(["slug", "publish_date", "updated_at"])
    .orderBy("publish_date", "desc")
    .orderBy("id")
    .execute();
  // A scheduled post edited before its moment was "modified" when it went public.
  return rows.map((row) => ({
    slug: row.slug,
    lastModified: row.updated_at > row.publish_date ? row.updated_at : row.publish_date,
  }));
}
