import { defineJob, enqueue, onEvent } from "../jobs/index.server";
import { createEventDeliveries, MAX_ATTEMPTS, RETRY_DELAYS_MS, runDeliveryJob } from "./deliveries.server";

/**
 * Where webhooks meet the jobs queue (issue 43, ADR 067, 068), the one
 * place: the `webhook.deliver` job, and the event subscriber that turns each
 * event into one delivery and one job per webhook that takes it.
 */

/** A job's deadline: the attempt's 10 s and the database work around it. */
const JOB_TIMEOUT_MS = 30_000;

const deliver = defineJob<{ deliveryId: string }>("webhook.deliver", runDeliveryJob, {
  maxAttempts: MAX_ATTEMPTS,
  retryDelaysMs: RETRY_DELAYS_MS,
  timeoutMs: JOB_TIMEOUT_MS,
});

let subscribed = false;

/** Subscribes webhooks to the site's events; called once per process from server/startup.ts. */
export function init(): void {
  if (subscribed) return;
  subscribed = true;
  onEvent(async (event, ctx) => {
    // Idempotent: a second run of this event finds the same rows, and the same keys add no job.
    for (const delivery of await createEventDeliveries(ctx.db, event)) {
      await enqueue(
        ctx.db,
        deliver,
        { deliveryId: delivery.id },
        { idempotencyKey: `${event.id}:${delivery.webhookId}` },
      );
    }
  });
}
