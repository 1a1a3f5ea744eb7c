import type { Transaction } from "kysely";
import type { Db } from "../db/db.server";
import type { Database } from "../db/schema.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import {
  deleteDraft,
  findRevision as findStoredRevision,
  keepRevision,
  listRevisions as listStoredRevisions,
  MAX_REVISIONS,
  readDraft,
  writeDraft,
  type DocumentRef,
  type StoredDraft,
} from "../versioning/index.server";
import type { PostInput } from "./post-input.server";

/**
 * Revisions and autosaved drafts of posts (issue 18, ADR 043), kept by the
 * versioning domain (ADR 064); this module is the post's shape of them. A
 * revision is written in the transaction of every save of a post
 * (posts.server.ts). An autosaved draft is one administrator's unsaved text
 * of one post, replaced by each autosave, deleted when that administrator
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
  emailSubscribers: boolean;
}

/** A post as a revision's or a draft's state. */
interface PostState {
  title: string;
  excerpt: string;
  content: string;
  fields: Partial<RevisionFields>;
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

const postDocument = (id: string): DocumentRef => ({ kind: "post", id });

function stateOf(input: PostInput, resolved?: { author: string; publishDate: string }): PostState {
  return {
    title: input.title,
    excerpt: input.excerpt,
    content: input.content,
    fields: {
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
      emailSubscribers: input.emailSubscribers,
    },
  };
}

/** A state's fields, each defaulted (a state kept before a field existed lacks it). */
function fieldsOf({ fields: value }: PostState): RevisionFields {
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
    emailSubscribers: value.emailSubscribers ?? false,
  };
}

/**
 * Inside a save's transaction, after the post's row was written: the
 * revision, and the saver's autosaved draft of the post deleted (it is saved
 * now). On PostgreSQL the post's row is locked by then, so saves of one post
 * number in turn.
 */
export async function writeRevision(
  trx: Transaction<Database>,
  postId: string,
  input: PostInput,
  resolved: { author: string; publishDate: string; at: string },
  by: Saver | undefined,
): Promise<void> {
  let savedBy = "";
  if (by) {
    const row = await trx.selectFrom("admin_users").select("name").where("id", "=", by.id).executeTakeFirst();
    savedBy = row?.name?.trim() || by.email;
  }
  await keepRevision(trx, postDocument(postId), {
    state: stateOf(input, resolved),
    label: input.title,
    savedById: by?.id ?? null,
    savedBy,
    at: resolved.at,
  });
  if (by) await deleteDraft(trx, postDocument(postId), by.id);
}

/** The post's kept revisions, newest first: at most MAX_REVISIONS. */
export async function listRevisions(db: Db, postId: string): Promise<RevisionSummary[]> {
  if (!isRecordId(postId)) return [];
  const revisions = await listStoredRevisions(db, postDocument(postId));
  return revisions.map((revision) => ({
    id: revision.id,
    number: revision.number,
    title: revision.label,
    createdAt: revision.savedAt,
    savedBy: revision.savedBy ?? "",
  }));
}

/** One revision of this post; undefined when it does not exist or belongs to another post. */
export async function findRevision(db: Db, postId: string, revisionId: string): Promise<Revision | undefined> {
  if (!isRecordId(postId)) return undefined;
  const revision = await findStoredRevision<PostState>(db, postDocument(postId), revisionId);
  if (!revision) return undefined;
  return {
    id: revision.id,
    postId,
    number: revision.number,
    title: revision.state.title,
    excerpt: revision.state.excerpt,
    content: revision.state.content,
    createdAt: revision.savedAt,
    savedBy: revision.savedBy ?? "",
    ...fieldsOf(revision.state),
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
  const written = await db.transaction().execute(async (trx) => {
    // PostgreSQL: the post's row locked, so a save of the post either came
    // before (and the base is stale) or waits until this draft is written (and
    // deletes it). SQLite's writing transactions run one at a time anyway.
    let read = trx.selectFrom("posts").select("updated_at").where("id", "=", postId);
    if (isPostgres(trx)) read = read.forUpdate();
    const post = await read.executeTakeFirst();
    if (!post) return "missing";
    if (post.updated_at !== baseUpdatedAt) return "stale";
    const state = stateOf(input);
    return writeDraft(trx, postDocument(postId), {
      owner: adminId,
      state,
      baseVersion: baseUpdatedAt,
      savedBy: null,
      savedAt,
    });
  });
  if (written === "missing") return undefined;
  return written === "stale" ? "stale" : toAutosave(postId, written);
}

export async function readAutosave(db: Db, postId: string, adminId: string): Promise<Autosave | undefined> {
  if (!isRecordId(postId)) return undefined;
  const draft = await readDraft<PostState>(db, postDocument(postId), adminId);
  return draft && toAutosave(postId, draft);
}

/** A stored draft as the API answers it. */
function toAutosave(postId: string, draft: StoredDraft<PostState>): Autosave {
  return {
    postId,
    title: draft.state.title,
    excerpt: draft.state.excerpt,
    content: draft.state.content,
    baseUpdatedAt: draft.baseVersion,
    savedAt: draft.savedAt,
    ...fieldsOf(draft.state),
  };
}

/** True when there was a draft to delete. */
export async function deleteAutosave(db: Db, postId: string, adminId: string): Promise<boolean> {
  if (!isRecordId(postId)) return false;
  return deleteDraft(db, postDocument(postId), adminId);
}
