import { randomUUID } from "node:crypto";
import { sql, type SelectQueryBuilder } from "kysely";
import type { PostSort } from "~/lib/admin-lists";
import type { PostInput } from "./post-input.server";
import { getConfig } from "./config.server";
import { changingContent } from "./page-cache/version.server";
import { isUniqueViolation, type Db } from "./db/db.server";
import { isRecordId } from "./db/ids.server";
import { renderMarkdownSafely } from "./markdown.server";
import type { Database } from "./db/schema.server";
import type { PostListQuery } from "./list-query.server";
import { titleFilter } from "./title-search.server";
import {
  newestFirst,
  POST_COLUMNS,
  POST_LIST_COLUMNS,
  toPost,
  toPostListItem,
  type Post,
  type PostListItem,
} from "./public-posts.server";

/**
 * The admin's reads (drafts and scheduled posts included) and every write of
 * posts. The public's reads are in public-posts.server.ts, whose Post shape,
 * columns and order these share.
 */

export class SlugTakenError extends Error {
  constructor() {
    super("A post with this slug already exists");
  }
}

/**
 * One page of the admin's list: drafts and scheduled posts included, without
 * their markdown, in `sort` order (newest publishDate first by default), and
 * the number of posts that match. ADR 026; the title filter, ADR 030.
 */
export async function listAdminPosts(db: Db, { limit, offset, q, sort }: PostListQuery): Promise<PostListPage> {
  const filter = q === undefined ? undefined : await titleFilter(db, q);
  const filtered = <O>(query: SelectQueryBuilder<Database, "posts", O>) =>
    filter ? query.where(filter.matches) : query;
  const list = inOrder(filtered(db.selectFrom("posts").select(POST_LIST_COLUMNS)), sort)
    .limit(limit)
    .offset(offset);
  const count = filtered(db.selectFrom("posts").select((eb) => eb.fn.countAll<string | number>().as("count")));
  const known = filter?.total;
  const [rows, total] = await Promise.all([
    known !== undefined && offset >= known ? [] : list.execute(),
    known ?? count.executeTakeFirstOrThrow().then((row) => Number(row.count)),
  ]);
  return { posts: rows.map(toPostListItem), total };
}

export interface PostListPage {
  posts: PostListItem[];
  /** Posts matching the filter, on every page. */
  total: number;
}

/**
 * The admin list's orders, each ending in the id so that equal dates or
 * titles keep one order across pages. Each has an index (migration 007).
 */
function inOrder<O>(query: SelectQueryBuilder<Database, "posts", O>, sort: PostSort) {
  switch (sort) {
    case "-publishDate":
      return newestFirst(query);
    case "publishDate":
      return newestFirst(query, "backward");
    case "title":
      return query.orderBy(sql`lower(${sql.ref("title")})`, "asc").orderBy("id", "asc");
    case "-title":
      return query.orderBy(sql`lower(${sql.ref("title")})`, "desc").orderBy("id", "desc");
  }
}

export async function findPostById(db: Db, id: string): Promise<Post | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db.selectFrom("posts").select(POST_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row && toPost(row);
}

/** The row's columns; the markdown is rendered before any transaction opens (it may take seconds). */
async function columnsFrom(input: PostInput, now: string) {
  return {
    title: input.title,
    slug: input.slug,
    excerpt: input.excerpt,
    content: input.content,
    content_html: await renderMarkdownSafely(input.content),
    category: input.category,
    author: input.author ?? getConfig().company.name,
    publish_date: input.publishDate ?? now,
    read_time: input.readTime,
    published: input.published ? 1 : 0,
    header_image: input.headerImage,
    updated_at: now,
  };
}

export async function createPost(db: Db, input: PostInput): Promise<Post> {
  const now = new Date().toISOString();
  const id = randomUUID();
  const columns = await columnsFrom(input, now);
  try {
    await changingContent(db, (trx) =>
      trx
        .insertInto("posts")
        .values({ id, ...columns, created_at: now })
        .execute(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new SlugTakenError();
    throw error;
  }
  return (await findPostById(db, id))!;
}

/** Undefined when no post has this id. */
export async function updatePost(db: Db, id: string, input: PostInput): Promise<Post | undefined> {
  if (!isRecordId(id)) return undefined;
  const now = new Date().toISOString();
  const columns = await columnsFrom(input, now);
  try {
    const updated = await changingContent(db, async (trx) => {
      const result = await trx.updateTable("posts").set(columns).where("id", "=", id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
    if (!updated) return undefined;
  } catch (error) {
    if (isUniqueViolation(error)) throw new SlugTakenError();
    throw error;
  }
  return findPostById(db, id);
}

/** False when no post has this id. */
export async function deletePost(db: Db, id: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  return changingContent(db, async (trx) => {
    const result = await trx.deleteFrom("posts").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

export async function countPosts(db: Db): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
