import type { Connection } from "../db/db.server";
import { defineJob, defineSchedule } from "../jobs/index.server";
import { getLogger } from "../platform/logger.server";
import { initBookingThrottle } from "./book.server";
import { pruneBookings } from "./bookings.server";
import { initLinkKey } from "./link-key.server";
import { initMailThrottles } from "./mail.server";

/**
 * What booking builds once per process, called from server/startup.ts
 * before any request: the per-address throttle, the invitations'
 * throttles, the links' key, and the daily pruning of bookings 30 days
 * past their call or their cancellation.
 */
export function init(connection: Connection): void {
  initBookingThrottle(connection);
  initMailThrottles(connection);
  initLinkKey(connection);
  const prune = defineJob<Record<string, never>>(
    "booking.prune",
    async (_payload, { db }) => {
      const removed = await pruneBookings(db);
      if (removed > 0) getLogger().info({ removed }, "bookings past their call or cancelled pruned");
    },
    { maxAttempts: 1 },
  );
  defineSchedule("booking.prune", 24 * 60 * 60_000, prune);
}
