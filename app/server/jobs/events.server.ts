import { randomUUID } from "node:crypto";
import { type EventName } from "~/lib/events";
import { getLogger } from "../platform/logger.server";
import { enqueue, type Executor } from "./queue.server";
import { defineJob, type JobContext } from "./registry.server";

/**
 * Events as an outbox (ADR 067): emitting one enqueues a single
 * `event.dispatch` job in the transaction of the change it reports, so an
 * event exists exactly when that change committed: never lost, never sent
 * for a change that rolled back. The job calls every subscriber registered
 * with onEvent (the webhooks domain, later others); a run can repeat after a
 * crash, so each subscriber is idempotent, keyed by the event's id.
 */

export interface SiteEvent {
  id: string;
  type: EventName;
  occurredAt: string;
  data: Record<string, unknown>;
}

interface DispatchPayload {
  eventId: string;
  event: EventName;
  data: Record<string, unknown>;
  occurredAt: string;
}

type Subscriber = (event: SiteEvent, ctx: JobContext) => Promise<void>;
const subscribers: Subscriber[] = [];

/** Adds a subscriber for every event; it must be idempotent per `event.id` (runs can repeat). */
export function onEvent(handler: Subscriber): void {
  subscribers.push(handler);
}

const dispatch = defineJob<DispatchPayload>(
  "event.dispatch",
  async ({ eventId, event, data, occurredAt }, ctx) => {
    const siteEvent: SiteEvent = { id: eventId, type: event, occurredAt, data };
    for (const subscriber of subscribers) await subscriber(siteEvent, ctx);
    getLogger().info({ eventId, event, data: { id: data.id } }, "event dispatched");
  },
  { maxAttempts: 8, retryDelaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000] },
);

/**
 * Emits `event` with `data` in `db`'s transaction. With an idempotency key
 * already used, nothing more is emitted: "once per post becoming public"
 * holds however many processes or requests try.
 */
export async function emit(
  db: Executor,
  event: EventName,
  data: Record<string, unknown>,
  { idempotencyKey }: { idempotencyKey?: string } = {},
): Promise<void> {
  const payload: DispatchPayload = { eventId: randomUUID(), event, data, occurredAt: new Date().toISOString() };
  await enqueue(db, dispatch, payload, { idempotencyKey: idempotencyKey && `event:${idempotencyKey}` });
}
