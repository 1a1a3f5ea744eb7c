import { sql } from "kysely";
import { LRUCache } from "lru-cache";
import { isCategorySlug } from "~/lib/categories";
import type { Connection, Db } from "../db/db.server";
import { currentListShape, type PublicListShape } from "./public-list.server";
import {
  ARTICLE_COLUMNS,
  SUMMARY_COLUMNS,
  toArticle,
  toSummary,
  type Article,
  type PostSummary,
} from "./post-shape.server";
import { lastModified, newestFirst, publicPosts } from "./public-posts.server";

/**
 * Reads of a category's public posts (ADR 041): the category page, its feed
 * and the sitemap's category URLs. "Public" is what /blog lists
 * (public-posts.server.ts); a post belongs to the category whose slug its
 * `category_slug` holds. Every list query reads posts_category_idx
 * (category_slug, published, publish_date, id).
 */

export interface Category {
  slug: string;
  /** The newest public post's spelling of the name ("Web Design" and "web design" share a page). */
  name: string;
  /** Its public posts, hidden ones (noindex) included, as the page lists them. */
  total: number;
}

/** A category page in the sitemap and when its list last changed. */
interface CategoryUrl {
  slug: string;
  lastModified: string;
}

const inCategory = (db: Db, slug: string, now: Date) => publicPosts(db, now).where("category_slug", "=", slug);

/** The category with this slug, or undefined when the slug is malformed or no public post has it. */
export async function findCategory(db: Db, slug: string, now: Date): Promise<Category | undefined> {
  if (!isCategorySlug(slug)) return undefined;
  const newest = await newestFirst(inCategory(db, slug, now).select("category"))
    .limit(1)
    .executeTakeFirst();
  if (!newest) return undefined;
  const row = await inCategory(db, slug, now)
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return { slug, name: newest.category, total: Number(row.count) };
}

/** Categories a process keeps per list shape: the most visited; a category is ~100 bytes. */
const KEPT_CATEGORIES = 256;
const keptCategories = new WeakMap<PublicListShape, LRUCache<string, Category>>();

/**
 * findCategory, kept by this process while the public list's shape holds
 * (ADR 029's rule: the same content version, no scheduled post come due
 * since), so a category page does not count the category's posts on every
 * render: at 100,000 posts in four categories that count read 25,000 index
 * entries, most of an uncached category page's time (issue 15). Slugs no
 * public post has are not kept, so unknown slugs cannot push real ones out.
 */
export async function currentCategory(connection: Connection, slug: string, now: Date): Promise<Category | undefined> {
  if (!isCategorySlug(slug)) return undefined;
  const shape = await currentListShape(connection, now);
  let kept = keptCategories.get(shape);
  if (!kept) keptCategories.set(shape, (kept = new LRUCache<string, Category>({ max: KEPT_CATEGORIES })));
  const known = kept.get(slug);
  if (known) return known;
  const found = await findCategory(connection.db, slug, now);
  if (found) kept.set(slug, found);
  return found;
}

/** One page of a category's public posts, newest first, as cards. */
export async function listCategorySummaries(
  db: Db,
  slug: string,
  { limit, offset, now }: { limit: number; offset: number; now: Date },
): Promise<PostSummary[]> {
  // The page's ids first, from posts_category_idx alone: an OFFSET over whole rows
  // reads every skipped post's row (~10 µs each), over the index ~0.1 µs.
  const ids = newestFirst(inCategory(db, slug, now).select("id"))
    .limit(limit)
    .offset(offset);
  const rows = await newestFirst(db.selectFrom("posts").select(SUMMARY_COLUMNS).where("id", "in", ids)).execute();
  return rows.map(toSummary);
}

/** The category's newest public posts with their HTML for its feed; hidden posts (noindex) are left out. */
export async function listCategoryFeedArticles(
  db: Db,
  slug: string,
  { limit, now }: { limit: number; now: Date },
): Promise<Article[]> {
  const rows = await newestFirst(inCategory(db, slug, now).select(ARTICLE_COLUMNS).where("noindex", "=", 0))
    .limit(limit)
    .execute();
  return rows.map(toArticle);
}

/**
 * The categories the sitemap lists: those with a public post that is not
 * hidden from search engines (a page of hidden posts only is not offered to
 * crawlers). `category_slug <> ''`: a post without a category has no page.
 */
const indexedCategories = (db: Db, now: Date) =>
  db
    .selectFrom("posts")
    // `published + 0` is no column reference, so SQLite cannot take posts_order_idx
    // (published, publish_date), whose every entry leads to a row of markdown and HTML
    // (~0.8 s at 100,000 posts), and reads posts_category_idx, which holds every column
    // used here (~10 ms). `> ''` is `<> ''` as a range of that index.
    .where(sql<number>`published + 0`, "=", 1)
    .where("publish_date", "<=", now.toISOString())
    .where("noindex", "=", 0)
    .where("category_slug", ">", "");

/** How many category pages the sitemap lists. */
export async function countSitemapCategories(db: Db, now: Date): Promise<number> {
  const row = await indexedCategories(db, now)
    .select((eb) => eb.fn.count<string | number>("category_slug").distinct().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One sitemap file's share of the category pages, by slug, each with its posts' latest change. */
export async function listCategoryUrls(
  db: Db,
  { limit, offset, now }: { limit: number; offset: number; now: Date },
): Promise<CategoryUrl[]> {
  const rows = await indexedCategories(db, now)
    .select((eb) => [
      "category_slug",
      eb.fn.max("publish_date").as("publish_date"),
      eb.fn.max("updated_at").as("updated_at"),
    ])
    .groupBy("category_slug")
    .orderBy("category_slug")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => ({
    slug: row.category_slug,
    lastModified: lastModified({ publish_date: String(row.publish_date), updated_at: String(row.updated_at) }),
  }));
}
