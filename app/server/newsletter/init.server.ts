import type { Connection } from "../db/db.server";
import { defineJob, defineSchedule } from "../jobs/index.server";
import { getLogger } from "../platform/logger.server";
import { initConfirmThrottles } from "./confirm-mail.server";
import { initLinks } from "./links.server";
import { subscribeToPublishing } from "./mailing.server";
import { pruneMailingRecipients } from "./prune.server";
import { initSubscribeThrottle } from "./subscribe.server";
import { pruneSubscribers } from "./subscribers.server";

/**
 * What the newsletter builds once per process, called from server/startup.ts
 * before any request: the sign-up and confirmation throttles, the links'
 * signers, its subscription to `post.published`, and the daily pruning of
 * expired sign-ups, old unsubscribes and old mailings' per-recipient rows.
 */
export function init(connection: Connection): void {
  initSubscribeThrottle(connection);
  initConfirmThrottles(connection);
  initLinks(connection);
  subscribeToPublishing();
  const prune = defineJob<Record<string, never>>(
    "newsletter.prune",
    async (_payload, { db }) => {
      const subscribers = await pruneSubscribers(db);
      const recipients = await pruneMailingRecipients(db);
      if (subscribers + recipients > 0) getLogger().info({ subscribers, recipients }, "newsletter rows pruned");
    },
    { maxAttempts: 1 },
  );
  defineSchedule("newsletter.prune", 24 * 60 * 60_000, prune);
}
