import type { Db } from "../db/db.server";
import {
  createEventDeliveries,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  runDeliveryJob,
  type WebhookEventMessage,
} from "./deliveries.server";

/**
 * Where webhooks meet the jobs queue (issue 43, ADR 068), the one place:
 * the `webhook.deliver` job and the subscriber that turns each event into
 * one delivery and one job per webhook that takes it. The queue is passed
 * in (the jobs domain's defineJob, enqueue and onEvent), so this domain
 * does not import it and the start wires both in one call.
 */

interface JobContext {
  db: Db;
  attempt: number;
  jobId: string;
  signal: AbortSignal;
}

/** The part of the jobs domain's interface webhooks use. */
interface JobsQueue<Kind> {
  defineJob(
    kind: string,
    handler: (payload: { deliveryId: string }, ctx: JobContext) => Promise<void>,
    options: { maxAttempts: number; retryDelaysMs: number[]; timeoutMs: number },
  ): Kind;
  enqueue(
    db: Db,
    kind: Kind,
    payload: { deliveryId: string },
    options: { idempotencyKey: string },
  ): Promise<{ id: string; created: boolean }>;
  onEvent(handler: (event: WebhookEventMessage, ctx: JobContext) => Promise<void>): void;
}

/** A job's deadline: the attempt's 10 s and the database work around it. */
const JOB_TIMEOUT_MS = 30_000;

/** Registers the delivery job and the event subscriber; called once at start. */
export function connectWebhooks<Kind>(queue: JobsQueue<Kind>): void {
  const deliver = queue.defineJob("webhook.deliver", runDeliveryJob, {
    maxAttempts: MAX_ATTEMPTS,
    retryDelaysMs: RETRY_DELAYS_MS,
    timeoutMs: JOB_TIMEOUT_MS,
  });
  queue.onEvent(async (event, ctx) => {
    // Idempotent: a second run of this event finds the same rows and the same keys.
    for (const delivery of await createEventDeliveries(ctx.db, event)) {
      await queue.enqueue(
        ctx.db,
        deliver,
        { deliveryId: delivery.id },
        { idempotencyKey: `${event.id}:${delivery.webhookId}` },
      );
    }
  });
}
