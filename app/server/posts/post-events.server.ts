import type { Transaction } from "kysely";
import type { Db } from "../db/db.server";
import type { Database } from "../db/schema.server";
import { defineJob, emit, enqueue } from "../jobs/index.server";
import { siteNow } from "../platform/clock.server";

/**
 * `post.published` (ADR 067): fires when a post becomes public, once. Saving
 * a published post dated now or earlier that was not public before emits it
 * in the save's transaction; a published post dated later gets a job at its
 * date that, when run, emits it if the post is still published with that
 * date. Either way the event's idempotency key is the post and its date, so
 * two processes (or the save and the job) emit it once.
 */

type Trx = Transaction<Database>;

/** What the hook reads of a post as saved, and as it was before (undefined for a new post). */
export interface PublishState {
  published: number;
  publish_date: string;
}
interface SavedPost extends PublishState {
  title: string;
  slug: string;
}

const isPublic = (post: PublishState, now: number) => post.published === 1 && Date.parse(post.publish_date) <= now;

async function emitPublished(trx: Trx, id: string, post: SavedPost): Promise<void> {
  await emit(
    trx,
    "post.published",
    { id, slug: post.slug, title: post.title, publishDate: post.publish_date },
    { idempotencyKey: `post.published:${id}:${post.publish_date}` },
  );
}

const publishDue = defineJob<{ postId: string; publishDate: string }>(
  "post.publish-due",
  async ({ postId, publishDate }, { db }) => {
    await db.transaction().execute(async (trx) => {
      const post = await trx
        .selectFrom("posts")
        .select(["title", "slug", "published", "publish_date"])
        .where("id", "=", postId)
        .executeTakeFirst();
      // Unpublished, deleted or moved to another date since: that save decided.
      if (!post || post.published !== 1 || post.publish_date !== publishDate) return;
      if (!isPublic(post, siteNow())) throw new Error("the post's date has not come yet");
      await emitPublished(trx, postId, post);
    });
  },
  { maxAttempts: 10, retryDelaysMs: [1000, 5000, 30_000, 5 * 60_000], timeoutMs: 10_000 },
);

/** Called in every save's transaction (create and update) with the row as saved. */
export async function postSaved(trx: Trx, id: string, post: SavedPost, before?: PublishState): Promise<void> {
  if (post.published !== 1) return;
  const now = siteNow();
  if (!isPublic(post, now)) {
    const runAt = new Date(Date.parse(post.publish_date));
    await enqueue(
      trx,
      publishDue,
      { postId: id, publishDate: post.publish_date },
      { runAt, idempotencyKey: `post.publish-due:${id}:${post.publish_date}` },
    );
    return;
  }
  if (before && isPublic(before, now)) return;
  await emitPublished(trx, id, post);
}

/**
 * After a restore (jobs are not in a backup): each post published with a
 * date still to come gets its job at that date again, keyed as a save
 * would key it, so `post.published` (and a newsletter mailing) still fires
 * at its time, once.
 */
export async function queueRestoredPublications(trx: Trx | Db, now = Date.now()): Promise<void> {
  const rows = await trx
    .selectFrom("posts")
    .select(["id", "publish_date"])
    .where("published", "=", 1)
    .where("publish_date", ">", new Date(now).toISOString())
    .limit(5000)
    .execute();
  for (const row of rows)
    await enqueue(
      trx,
      publishDue,
      { postId: row.id, publishDate: row.publish_date },
      {
        runAt: new Date(Date.parse(row.publish_date)),
        idempotencyKey: `post.publish-due:${row.id}:${row.publish_date}`,
      },
    );
}
