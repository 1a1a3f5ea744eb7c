import { randomUUID } from "node:crypto";
import { sql, type SelectQueryBuilder, type Transaction } from "kysely";
import type { PostSort } from "~/lib/admin-lists";
import { categorySlugOf } from "~/lib/categories";
import type { PostInput } from "./post-input.server";
import { readSiteSettings } from "../settings/index.server";
import { changingContent } from "../db/content-version.server";
import { isUniqueViolation, type Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import type { Database } from "../db/schema.server";
import { renderPostBody } from "./post-body.server";
import type { PostListQuery } from "./list-query.server";
import { fewMatches, titleFilter } from "./title-search.server";
import { deletePostRow, referencePostImages } from "../images/index.server";
import { writeRevision, type Saver } from "./post-revisions.server";
import { postCreated, postDeleted, postMoved } from "./post-addresses.server";
import { forgetDocument } from "../versioning/index.server";
import { postSaved } from "./post-events.server";
import {
  ADMIN_POST_COLUMNS,
  POST_LIST_COLUMNS,
  toAdminPost,
  toPostListItem,
  type AdminPost,
  type PostListItem,
} from "./post-shape.server";
import { siteNow } from "../platform/clock.server";

/**
 * The admin's reads (drafts and scheduled posts included) and every write of
 * posts. The public's reads are in public-posts.server.ts, whose Post shape
 * (here with the admin's own options: AdminPost), columns and order these share.
 */

export class SlugTakenError extends Error {
  constructor() {
    super("A post with this slug already exists");
  }
}

/**
 * A save based on a version of the post that is no longer the stored one
 * (ADR 043): the post was saved since, in another tab or by someone else.
 */
export class EditConflictError extends Error {
  constructor(readonly updatedAt: string) {
    super("This post was changed since you opened it");
  }
}

/** Who saves, for the revision; the base: the post's updatedAt the editor opened (optional). */
interface SaveOptions {
  by?: Saver;
  baseUpdatedAt?: string;
}

/**
 * How an import creates a post (ADR 074): an old post that is public already
 * did not become public now, so it fires no `post.published` (a scheduled
 * one still does, at its date); `alongside` writes the import's own records
 * in the post's transaction, so both are kept or neither.
 */
interface CreateOptions extends SaveOptions {
  imported?: boolean;
  alongside?: (trx: Transaction<Database>, post: { id: string; slug: string; categorySlug: string }) => Promise<void>;
}

/**
 * One page of the admin's list: drafts and scheduled posts included, without
 * their markdown, in `sort` order (newest publishDate first by default), and
 * the number of posts that match. ADR 026; the title filter, ADR 030.
 */
export async function listAdminPosts(db: Db, { limit, offset, q, sort }: PostListQuery): Promise<PostListPage> {
  const filter = q === undefined ? undefined : await titleFilter(db, q);
  if (filter?.few !== undefined) {
    // Few matches, counted already: the page is sorted from them alone.
    const page = inOrder(fewMatches(db, filter).select("id"), sort).limit(limit).offset(offset);
    return { posts: offset < filter.few ? await postsOf(db, page, sort) : [], total: filter.few };
  }
  let ids = db.selectFrom("posts").select("id");
  let count = db.selectFrom("posts").select((eb) => eb.fn.countAll<string | number>().as("count"));
  if (filter) {
    ids = ids.where(filter.matches);
    count = count.where(filter.matches);
  }
  const [posts, counted] = await Promise.all([
    postsOf(db, inOrder(ids, sort).limit(limit).offset(offset), sort),
    count.executeTakeFirstOrThrow(),
  ]);
  return { posts, total: Number(counted.count) };
}

interface PostListPage {
  posts: PostListItem[];
  /** Posts matching the filter, on every page. */
  total: number;
}

/**
 * The posts of a page, in `sort` order, from a query of their ids. The ids
 * come first and the rows after, so the entries an offset skips are walked
 * in the order's index alone (a covering scan) and only the page's rows are
 * read: offset 50,000 of 100,000 in about half the time on SQLite and two
 * thirds on PostgreSQL (ADR 030).
 */
async function postsOf<DB, TB extends keyof DB>(
  db: Db,
  ids: SelectQueryBuilder<DB, TB, { id: string }>,
  sort: PostSort,
) {
  const rows = await inOrder(db.selectFrom("posts").select(POST_LIST_COLUMNS).where("id", "in", ids), sort).execute();
  return rows.map(toPostListItem);
}

/**
 * The admin list's orders, each ending in the id so that equal dates or
 * titles keep one order across pages, on the posts table or on a selection
 * of its columns (fewMatches). Each has an index on posts (migration 007).
 * Newest first is the public list's order (newestFirst).
 */
function inOrder<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, sort: PostSort) {
  const date = sql.ref("publish_date");
  const id = sql.ref("id");
  const title = sql`lower(${sql.ref("title")})`;
  switch (sort) {
    case "-publishDate":
      return query.orderBy(date, "desc").orderBy(id, "asc");
    case "publishDate":
      return query.orderBy(date, "asc").orderBy(id, "desc");
    case "title":
      return query.orderBy(title, "asc").orderBy(id, "asc");
    case "-title":
      return query.orderBy(title, "desc").orderBy(id, "desc");
  }
}

export async function findPostById(db: Db, id: string): Promise<AdminPost | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db.selectFrom("posts").select(ADMIN_POST_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row && toAdminPost(row);
}

/** The row's columns; the markdown is rendered before any transaction opens (it may take seconds). */
async function columnsFrom(db: Db, input: PostInput, now: string) {
  return {
    title: input.title,
    slug: input.slug,
    excerpt: input.excerpt,
    content: input.content,
    content_html: await renderPostBody(db, input.content),
    category: input.category,
    category_slug: categorySlugOf(input.category),
    author: input.author ?? (await readSiteSettings(db)).companyName,
    publish_date: input.publishDate ?? now,
    read_time: input.readTime,
    published: input.published ? 1 : 0,
    header_image: input.headerImage,
    meta_title: input.metaTitle,
    meta_description: input.metaDescription,
    header_image_alt: input.headerImageAlt,
    noindex: input.noindex ? 1 : 0,
    email_subscribers: input.emailSubscribers ? 1 : 0,
    updated_at: now,
  };
}

/** What a revision records of the row's resolved values. */
const resolvedOf = (columns: { author: string; publish_date: string; updated_at: string }) => ({
  author: columns.author,
  publishDate: columns.publish_date,
  at: columns.updated_at,
});

export async function createPost(
  db: Db,
  input: PostInput,
  { by, imported = false, alongside }: CreateOptions = {},
): Promise<AdminPost> {
  const now = new Date().toISOString();
  const id = randomUUID();
  const columns = await columnsFrom(db, input, now);
  try {
    await changingContent(db, async (trx) => {
      await trx
        .insertInto("posts")
        .values({ id, ...columns, created_at: now })
        .execute();
      await referencePostImages(trx, id, input);
      await writeRevision(trx, id, input, resolvedOf(columns), by);
      await postCreated(trx, { slug: columns.slug, categorySlug: columns.category_slug });
      if (!imported || Date.parse(columns.publish_date) > siteNow()) await postSaved(trx, id, columns);
      await alongside?.(trx, { id, slug: columns.slug, categorySlug: columns.category_slug });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new SlugTakenError();
    throw error;
  }
  return (await findPostById(db, id))!;
}

/**
 * Undefined when no post has this id. With `baseUpdatedAt`, the row is
 * written only while it is still that version (one conditional UPDATE, so
 * two saves from one base cannot both pass); otherwise EditConflictError.
 */
export async function updatePost(
  db: Db,
  id: string,
  input: PostInput,
  { by, baseUpdatedAt }: SaveOptions = {},
): Promise<AdminPost | undefined> {
  if (!isRecordId(id)) return undefined;
  let now = new Date().toISOString();
  // The new version must differ from the base, even within its millisecond.
  if (baseUpdatedAt !== undefined && now <= baseUpdatedAt) {
    const base = Date.parse(baseUpdatedAt);
    if (!Number.isNaN(base)) now = new Date(base + 1).toISOString();
  }
  const columns = await columnsFrom(db, input, now);
  try {
    const updated = await changingContent(db, async (trx) => {
      const before = await trx
        .selectFrom("posts")
        .select(["header_image", "content", "slug", "category_slug", "published", "publish_date"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!before) return false;
      let update = trx.updateTable("posts").set(columns).where("id", "=", id);
      if (baseUpdatedAt !== undefined) update = update.where("updated_at", "=", baseUpdatedAt);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        const current = await trx.selectFrom("posts").select("updated_at").where("id", "=", id).executeTakeFirst();
        if (!current) return false;
        throw new EditConflictError(current.updated_at);
      }
      await referencePostImages(trx, id, input, { headerImage: before.header_image, content: before.content });
      await writeRevision(trx, id, input, resolvedOf(columns), by);
      await postMoved(
        trx,
        { slug: before.slug, categorySlug: before.category_slug },
        { slug: columns.slug, categorySlug: columns.category_slug },
      );
      await postSaved(trx, id, columns, before);
      return true;
    });
    if (!updated) return undefined;
  } catch (error) {
    if (isUniqueViolation(error)) throw new SlugTakenError();
    throw error;
  }
  return findPostById(db, id);
}

/**
 * False when no post has this id. With `deleteImages`, the uploads only this
 * post used go with it (ADR 036); images other posts use are kept.
 */
export async function deletePost(db: Db, id: string, options: { deleteImages?: boolean } = {}): Promise<boolean> {
  if (!isRecordId(id)) return false;
  return changingContent(db, async (trx) => {
    const before = await trx
      .selectFrom("posts")
      .select(["slug", "category_slug"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!before || (await deletePostRow(trx, id, options)) === undefined) return false;
    // After the row: a share link or draft made meanwhile waited on its lock, and goes here.
    await forgetDocument(trx, { kind: "post", id });
    await postDeleted(trx, { slug: before.slug, categorySlug: before.category_slug });
    return true;
  });
}

export async function countPosts(db: Db): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
