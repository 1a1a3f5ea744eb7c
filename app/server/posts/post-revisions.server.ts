import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { MAX_REVISIONS } from "~/lib/revisions";
import type { Db } from "../db/db.server";
import type { Database, PostAutosavesTable } from "../db/schema.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import type { PostInput } from "./post-input.server";

/**
 * Revisions and autosaved drafts of posts (issue 18, ADR 043). A revision is
 * written in the transaction of every save of a post (posts.server.ts), and
 * the newest MAX_REVISIONS of a post are kept. An autosaved draft is one
 * administrator's unsaved text of one post: one row per post and
 * administrator, replaced by each autosave, deleted when that administrator
 * saves the post. Neither changes the post or what visitors see.
 */

export { MAX_REVISIONS };

/** The fields of a post besides title, excerpt and content, as a revision or a draft keeps them. */
interface RevisionFields {
  slug: string;
  category: string;
  author: string | null;
  readTime: string;
  published: boolean;
  publishDate: string | null;
  headerImage: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  headerImageAlt: string | null;
  noindex: boolean;
}

/** A revision in the list: who saved it and when, without its text. */
export interface RevisionSummary {
  id: string;
  number: number;
  title: string;
  createdAt: string;
  /** The administrator's name or e-mail at the time; empty when not saved by one. */
  savedBy: string;
}

/** One revision whole. */
export interface Revision extends RevisionSummary, RevisionFields {
  postId: string;
  excerpt: string;
  content: string;
}

/** An administrator's autosaved draft of a post. */
export interface Autosave extends RevisionFields {
  postId: string;
  title: string;
  excerpt: string;
  content: string;
  /** The post's updatedAt when the editor opened it. */
  baseUpdatedAt: string;
  savedAt: string;
}

/** Who saved: an administrator's id and the name shown for them. */
export interface Saver {
  id: string;
  email: string;
}

function fieldsOf(input: PostInput, resolved?: { author: string; publishDate: string }): RevisionFields {
  return {
    slug: input.slug,
    category: input.category,
    author: resolved?.author ?? input.author ?? null,
    readTime: input.readTime,
    published: input.published,
    publishDate: resolved?.publishDate ?? input.publishDate ?? null,
    headerImage: input.headerImage,
    metaTitle: input.metaTitle,
    metaDescription: input.metaDescription,
    headerImageAlt: input.headerImageAlt,
    noindex: input.noindex,
  };
}

function parseFields(json: string): RevisionFields {
  const value = JSON.parse(json) as Partial<RevisionFields>;
  return {
    slug: value.slug ?? "",
    category: value.category ?? "",
    author: value.author ?? null,
    readTime: value.readTime ?? "",
    published: value.published ?? false,
    publishDate: value.publishDate ?? null,
    headerImage: value.headerImage ?? null,
    metaTitle: value.metaTitle ?? null,
    metaDescription: value.metaDescription ?? null,
    headerImageAlt: value.headerImageAlt ?? null,
    noindex: value.noindex ?? false,
  };
}

/**
 * Inside a save's transaction, after the post's row was written: the
 * revision, the oldest beyond MAX_REVISIONS deleted, and the saver's
 * autosaved draft of the post deleted (it is saved now). On PostgreSQL the
 * post's row is locked by then, so saves of one post number in turn.
 */
export async function writeRevision(
  trx: Transaction<Database>,
  postId: string,
  input: PostInput,
  resolved: { author: string; publishDate: string; at: string },
  by: Saver | undefined,
): Promise<void> {
  const last = await trx
    .selectFrom("post_revisions")
    .select((eb) => eb.fn.max("number").as("number"))
    .where("post_id", "=", postId)
    .executeTakeFirst();
  const number = Number(last?.number ?? 0) + 1;
  let savedBy = "";
  if (by) {
    const row = await trx.selectFrom("admin_users").select("name").where("id", "=", by.id).executeTakeFirst();
    savedBy = row?.name?.trim() || by.email;
  }
  await trx
    .insertInto("post_revisions")
    .values({
      id: randomUUID(),
      post_id: postId,
      number,
      title: input.title,
      excerpt: input.excerpt,
      content: input.content,
      fields: JSON.stringify(fieldsOf(input, resolved)),
      admin_id: by?.id ?? null,
      admin_name: savedBy,
      created_at: resolved.at,
    })
    .execute();
  await trx
    .deleteFrom("post_revisions")
    .where("post_id", "=", postId)
    .where("number", "<=", number - MAX_REVISIONS)
    .execute();
  if (by) {
    await trx.deleteFrom("post_autosaves").where("post_id", "=", postId).where("admin_id", "=", by.id).execute();
  }
}

/** The post's kept revisions, newest first: at most MAX_REVISIONS. */
export async function listRevisions(db: Db, postId: string): Promise<RevisionSummary[]> {
  if (!isRecordId(postId)) return [];
  const rows = await db
    .selectFrom("post_revisions")
    .select(["id", "number", "title", "created_at", "admin_name"])
    .where("post_id", "=", postId)
    .orderBy("number", "desc")
    .limit(MAX_REVISIONS)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    number: Number(row.number),
    title: row.title,
    createdAt: row.created_at,
    savedBy: row.admin_name,
  }));
}

/** One revision of this post; undefined when it does not exist or belongs to another post. */
export async function findRevision(db: Db, postId: string, revisionId: string): Promise<Revision | undefined> {
  if (!isRecordId(postId) || !isRecordId(revisionId)) return undefined;
  const row = await db
    .selectFrom("post_revisions")
    .selectAll()
    .where("id", "=", revisionId)
    .where("post_id", "=", postId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    postId: row.post_id,
    number: Number(row.number),
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    createdAt: row.created_at,
    savedBy: row.admin_name,
    ...parseFields(row.fields),
  };
}

/**
 * Keeps the administrator's draft of the post, replacing the one before.
 * Undefined when the post does not exist; "stale" when the post was saved
 * since `baseUpdatedAt` (a draft of an older version is not kept: the
 * editor's save would meet the conflict anyway). Touches neither the post nor
 * the content version: visitors and the page cache see nothing of it.
 */
export async function writeAutosave(
  db: Db,
  postId: string,
  adminId: string,
  input: PostInput,
  baseUpdatedAt: string,
): Promise<Autosave | "stale" | undefined> {
  if (!isRecordId(postId)) return undefined;
  const savedAt = new Date().toISOString();
  const row = {
    title: input.title,
    excerpt: input.excerpt,
    content: input.content,
    fields: JSON.stringify(fieldsOf(input)),
    base_updated_at: baseUpdatedAt,
    saved_at: savedAt,
  };
  const written = await db.transaction().execute(async (trx) => {
    // PostgreSQL: the post's row locked, so a save of the post either came
    // before (and the base is stale) or waits until this draft is written (and
    // deletes it). SQLite's writing transactions run one at a time anyway.
    let read = trx.selectFrom("posts").select("updated_at").where("id", "=", postId);
    if (isPostgres(trx)) read = read.forUpdate();
    const post = await read.executeTakeFirst();
    if (!post) return "missing";
    if (post.updated_at !== baseUpdatedAt) return "stale";
    await trx
      .insertInto("post_autosaves")
      .values({ post_id: postId, admin_id: adminId, ...row })
      .onConflict((oc) => oc.columns(["post_id", "admin_id"]).doUpdateSet(row))
      .execute();
    return "written";
  });
  if (written === "written") return toAutosave({ post_id: postId, ...row });
  return written === "stale" ? "stale" : undefined;
}

export async function readAutosave(db: Db, postId: string, adminId: string): Promise<Autosave | undefined> {
  if (!isRecordId(postId)) return undefined;
  const row = await db
    .selectFrom("post_autosaves")
    .selectAll()
    .where("post_id", "=", postId)
    .where("admin_id", "=", adminId)
    .executeTakeFirst();
  return row && toAutosave(row);
}

/** A stored draft as the API answers it. */
function toAutosave(row: Omit<PostAutosavesTable, "admin_id">): Autosave {
  return {
    postId: row.post_id,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    baseUpdatedAt: row.base_updated_at,
    savedAt: row.saved_at,
    ...parseFields(row.fields),
  };
}

/** True when there was a draft to delete. */
export async function deleteAutosave(db: Db, postId: string, adminId: string): Promise<boolean> {
  if (!isRecordId(postId)) return false;
  const result = await db
    .deleteFrom("post_autosaves")
    .where("post_id", "=", postId)
    .where("admin_id", "=", adminId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
