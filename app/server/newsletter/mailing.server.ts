import { randomUUID } from "node:crypto";
import type { Db } from "../db/db.server";
import { enqueue, onEvent, type SiteEvent } from "../jobs/index.server";
import { getLogger } from "../platform/logger.server";
import { batchJob } from "./batch.server";
import { siteNow } from "../platform/clock.server";

/**
 * A mailing starts (ADR 072) when a post asked to be e-mailed becomes public:
 * on the `post.published` event, which fires once for each time a post
 * becomes public, at a scheduled post's time too, with no request to the
 * site. The post's unique mailing row makes it once per post whatever
 * happens after (unpublished and published again, a repeated event); its
 * recipients are the subscribers confirmed at that moment, written in the
 * same transaction with the first batch's job.
 */

async function startMailing(db: Db, event: SiteEvent): Promise<void> {
  const postId = typeof event.data.id === "string" ? event.data.id : undefined;
  if (!postId) return;
  await db.transaction().execute(async (trx) => {
    const post = await trx
      .selectFrom("posts")
      .select(["email_subscribers", "published", "publish_date"])
      .where("id", "=", postId)
      .executeTakeFirst();
    if (!post || post.email_subscribers !== 1 || post.published !== 1) return;
    // Moved to a later date since the event: that date's own event starts it.
    if (Date.parse(post.publish_date) > siteNow()) return;
    const id = randomUUID();
    const inserted = await trx
      .insertInto("newsletter_mailings")
      .values({ id, post_id: postId, status: "sending", recipients: 0, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("post_id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
    const added = await trx
      .insertInto("newsletter_recipients")
      .columns(["mailing_id", "subscriber_id", "status"])
      .expression((eb) =>
        eb
          .selectFrom("subscribers")
          .select((s) => [s.val(id).as("mailing_id"), "id", s.val("pending").as("status")])
          .where("status", "=", "confirmed"),
      )
      .executeTakeFirst();
    const recipients = Number(added.numInsertedOrUpdatedRows ?? 0);
    await trx.updateTable("newsletter_mailings").set({ recipients }).where("id", "=", id).execute();
    await enqueue(trx, batchJob, { mailingId: id }, { idempotencyKey: `newsletter.batch:${id}:start` });
    getLogger().info({ mailingId: id, postId, recipients }, "newsletter mailing started");
  });
}

let subscribed = false;

/** Subscribes the newsletter to the site's events; once per process, from init. */
export function subscribeToPublishing(): void {
  if (subscribed) return;
  subscribed = true;
  onEvent(async (event, ctx) => {
    if (event.type === "post.published") await startMailing(ctx.db, event);
  });
}
