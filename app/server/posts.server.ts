import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import type { PostInput } from "~/lib/post-input";
import { isWellFormedSlug } from "~/lib/slug";
import { getConfig } from "./config.server";
import { changingContent } from "./content-version.server";
import { isUniqueViolation, type Db } from "./db/db.server";
import { isRecordId } from "./db/ids.server";
import { renderMarkdownSafely } from "./markdown.server";
import type { PostsTable } from "./db/schema.server";

/** A post as the HTTP contract shows it (PRODUCT §3). */
export interface Post {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  category: string;
  author: string;
  publishDate: string;
  readTime: string;
  published: boolean;
  headerImage: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A post with its body already rendered to sanitised HTML (at save time). */
export interface RenderedPost extends Post {
  contentHtml: string;
}

export class SlugTakenError extends Error {
  constructor() {
    super("A post with this slug already exists");
  }
}

type Row = Selectable<PostsTable>;

function toPost(row: Row): Post {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    content: row.content,
    category: row.category,
    author: row.author,
    publishDate: row.publish_date,
    readTime: row.read_time,
    published: Boolean(row.published),
    headerImage: row.header_image,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRenderedPost(row: Row): RenderedPost {
  return { ...toPost(row), contentHtml: row.content_html };
}

/**
 * Public: published, and publishDate has come (scheduled posts wait). `now` is
 * taken per request, so a scheduled post appears at its moment without a restart.
 */
export function publicPosts(db: Db, now: Date) {
  return db
    .selectFrom("posts")
    .where("published", "=", 1)
    .where("publish_date", "<=", now.toISOString());
}

export async function listPublicPosts(
  db: Db,
  { limit, offset, now = new Date() }: { limit: number; offset: number; now?: Date },
): Promise<Post[]> {
  const rows = await publicPosts(db, now)
    .selectAll()
    .orderBy("publish_date", "desc")
    .orderBy("id")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(toPost);
}

export async function countPublicPosts(db: Db, now = new Date()): Promise<number> {
  const row = await publicPosts(db, now)
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findPublicPostBySlug(
  db: Db,
  slug: string,
  now = new Date(),
): Promise<RenderedPost | undefined> {
  // Every stored slug is well formed; anything else (a NUL, a 100 KB segment) names no post.
  if (!isWellFormedSlug(slug)) return undefined;
  const row = await publicPosts(db, now).selectAll().where("slug", "=", slug).executeTakeFirst();
  return row && toRenderedPost(row);
}

export async function listAllPosts(db: Db): Promise<Post[]> {
  const rows = await db
    .selectFrom("posts")
    .selectAll()
    .orderBy("publish_date", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toPost);
}

export async function findPostById(db: Db, id: string): Promise<Post | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db.selectFrom("posts").selectAll().where("id", "=", id).executeTakeFirst();
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
