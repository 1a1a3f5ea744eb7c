import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { TEST_EVENT, type DeliveryItem, type DeliveryStatus } from "~/lib/webhooks";
import type { Db } from "../db/db.server";
import type { Database } from "../db/schema.server";
import { outboundFetch, OutboundError, type OutboundOptions } from "../outbound/index.server";
import type { PageQuery } from "../platform/paging.server";
import { openWebhookSecret, signatureOf } from "./secret.server";
import { eventsOf, WebhookError } from "./webhooks.server";

/**
 * Deliveries (ADR 068): one row per message to one webhook, whose id is the
 * `webhook-id` of every attempt, and whose body is fixed when it is made, so
 * a retry sends the same bytes and a receiver can drop a repeat. An attempt
 * signs with its own timestamp, POSTs under the outbound rules (10 s, 64 KB
 * of the answer read) and records what happened; 2xx is delivered, anything
 * else is retried by the job queue with growing delays until the last
 * attempt, which marks it failed.
 *
 * Bounded: rows older than DELIVERY_RETENTION_DAYS go, and each webhook keeps
 * its DELIVERIES_PER_WEBHOOK newest, so a flood of contact messages cannot
 * grow the table without end.
 */

/** Delays before the 2nd, 3rd... attempt (the queue adds jitter): 6 attempts over about 7 hours. */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;
const DELIVERY_RETENTION_DAYS = 30;
export const DELIVERIES_PER_WEBHOOK = 500;
/** The largest body sent; an event's data past it is replaced by a note (events carry ids and titles, not documents). */
const MAX_PAYLOAD_BYTES = 64 * 1024;
const ERROR_LENGTH = 300;

/** The body every attempt of a delivery sends. */
function payloadOf(event: string, data: Record<string, unknown>, occurredAt: string): string {
  const body = JSON.stringify({ type: event, timestamp: occurredAt, data });
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body;
  return JSON.stringify({ type: event, timestamp: occurredAt, data: { truncated: true } });
}

/** Removes deliveries past their age, and a webhook's past its newest DELIVERIES_PER_WEBHOOK. */
async function pruneDeliveries(db: Db, webhookId: string, now = new Date()): Promise<void> {
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 86_400_000).toISOString();
  await db.deleteFrom("webhook_deliveries").where("created_at", "<", cutoff).execute();
  const boundary = await db
    .selectFrom("webhook_deliveries")
    .select(["created_at", "id"])
    .where("webhook_id", "=", webhookId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .offset(DELIVERIES_PER_WEBHOOK - 1)
    .limit(1)
    .executeTakeFirst();
  if (!boundary) return;
  await db
    .deleteFrom("webhook_deliveries")
    .where("webhook_id", "=", webhookId)
    .where((eb) =>
      eb.or([
        eb("created_at", "<", boundary.created_at),
        eb.and([eb("created_at", "=", boundary.created_at), eb("id", "<", boundary.id)]),
      ]),
    )
    .execute();
}

/** A new pending delivery of `event` to one webhook; its id. */
async function createDelivery(
  db: Db,
  webhookId: string,
  event: string,
  data: Record<string, unknown>,
  { eventId = null, occurredAt = new Date().toISOString() }: { eventId?: string | null; occurredAt?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("webhook_deliveries")
    .values({
      id,
      webhook_id: webhookId,
      event_id: eventId,
      event,
      payload: payloadOf(event, data, occurredAt),
      status: "pending",
      attempts: 0,
      created_at: new Date().toISOString(),
    })
    .onConflict((conflict) => conflict.columns(["event_id", "webhook_id"]).doNothing())
    .execute();
  await pruneDeliveries(db, webhookId);
  return id;
}

export interface WebhookEventMessage {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/**
 * The deliveries of one event: a row for each webhook that takes it (made
 * once, however often the event is handled), and the pending ones, each to
 * be queued with the key `${eventId}:${webhookId}` (queue.server.ts).
 */
export async function createEventDeliveries(
  db: Db,
  event: WebhookEventMessage,
): Promise<Array<{ id: string; webhookId: string }>> {
  const webhooks = await db.selectFrom("webhooks").select(["id", "events"]).execute();
  for (const webhook of webhooks) {
    if (!eventsOf(webhook.events).some((name) => name === event.type)) continue;
    await createDelivery(db, webhook.id, event.type, event.data, { eventId: event.id, occurredAt: event.occurredAt });
  }
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select(["id", "webhook_id"])
    .where("event_id", "=", event.id)
    .where("status", "=", "pending")
    .execute();
  return rows.map((row) => ({ id: row.id, webhookId: row.webhook_id }));
}

export interface AttemptResult {
  status: DeliveryStatus;
  statusCode: number | null;
  error: string | null;
}

/** Sends one signed POST; the answer's status, or why there was none. */
async function send(
  url: string,
  secret: string,
  id: string,
  payload: string,
  options: OutboundOptions & { signal?: AbortSignal },
): Promise<{ statusCode: number | null; error: string | null }> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const answer = await outboundFetch(url, {
      ...options,
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "ojai-site-webhooks",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatureOf(secret, id, timestamp, payload),
      },
      body: payload,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return { statusCode: answer.status, error: ok ? null : `The receiver answered ${answer.status}` };
  } catch (error) {
    if (error instanceof OutboundError) return { statusCode: null, error: error.message };
    throw error;
  }
}

/**
 * One attempt of a delivery: sign, POST, record. `final`: a failure marks
 * it failed (else it stays pending for the queue's next attempt). A
 * delivery already delivered is not sent again unless `again` (Redeliver);
 * one that is gone (its webhook deleted, or pruned) answers undefined.
 */
export async function attemptDelivery(
  db: Db,
  deliveryId: string,
  { final, again = false, ...options }: OutboundOptions & { final: boolean; again?: boolean; signal?: AbortSignal },
): Promise<AttemptResult | undefined> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .innerJoin("webhooks", "webhooks.id", "webhook_deliveries.webhook_id")
    .select(["webhook_deliveries.payload", "webhook_deliveries.status", "webhooks.url", "webhooks.secret"])
    .where("webhook_deliveries.id", "=", deliveryId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.status === "delivered" && !again) return { status: "delivered", statusCode: null, error: null };
  const secret = openWebhookSecret(row.secret);
  const sent = secret
    ? await send(row.url, secret, deliveryId, row.payload, options)
    : { statusCode: null, error: "This site's key cannot open the webhook's secret: delete it and add it again" };
  const status: DeliveryStatus = sent.error === null ? "delivered" : final ? "failed" : "pending";
  await db
    .updateTable("webhook_deliveries")
    .set((eb) => ({
      status,
      attempts: eb("attempts", "+", 1),
      last_status_code: sent.statusCode,
      last_error: sent.error?.slice(0, ERROR_LENGTH) ?? null,
      last_attempt_at: new Date().toISOString(),
    }))
    .where("id", "=", deliveryId)
    .execute();
  return { status, statusCode: sent.statusCode, error: sent.error };
}

/** "Send test": a `webhook.test` delivery to one webhook, sent now, once; the delivery as the log shows it. */
export async function sendTest(db: Db, webhookId: string, options: OutboundOptions = {}): Promise<DeliveryItem> {
  const webhook = await db.selectFrom("webhooks").select("id").where("id", "=", webhookId).executeTakeFirst();
  if (!webhook) throw new WebhookError(404, "Webhook not found");
  const id = await createDelivery(db, webhookId, TEST_EVENT, {
    webhookId,
    message: "A test from Admin > Webhooks: this webhook's URL and secret work.",
  });
  await attemptDelivery(db, id, { ...options, final: true });
  return (await getDelivery(db, webhookId, id))!;
}

/**
 * "Redeliver": a delivered or failed delivery sent again now, once, with the
 * same webhook-id and body. A pending one is refused: the queue's next
 * attempt is on its way.
 */
export async function redeliver(
  db: Db,
  webhookId: string,
  deliveryId: string,
  options: OutboundOptions = {},
): Promise<DeliveryItem> {
  const delivery = await getDelivery(db, webhookId, deliveryId);
  if (!delivery) throw new WebhookError(404, "Delivery not found");
  if (delivery.status === "pending") throw new WebhookError(409, "This delivery is still being retried");
  await attemptDelivery(db, deliveryId, { ...options, final: true, again: true });
  return (await getDelivery(db, webhookId, deliveryId))!;
}

const DELIVERY_COLUMNS = [
  "id",
  "event",
  "status",
  "attempts",
  "last_status_code",
  "last_error",
  "created_at",
  "last_attempt_at",
] as const;

type DeliveryRow = Pick<Selectable<Database["webhook_deliveries"]>, (typeof DELIVERY_COLUMNS)[number]>;

const itemOf = (row: DeliveryRow): DeliveryItem => ({
  id: row.id,
  event: row.event,
  status: row.status as DeliveryStatus,
  attempts: Number(row.attempts),
  lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
  lastError: row.last_error,
  createdAt: row.created_at,
  lastAttemptAt: row.last_attempt_at,
});

async function getDelivery(db: Db, webhookId: string, id: string): Promise<DeliveryItem | undefined> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select(DELIVERY_COLUMNS)
    .where("id", "=", id)
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
  return row && itemOf(row);
}

/** A webhook's deliveries, newest first, paged like the other admin lists. */
export async function listDeliveries(db: Db, webhookId: string, { limit, offset }: PageQuery) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("webhook_deliveries")
      .select(DELIVERY_COLUMNS)
      .where("webhook_id", "=", webhookId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom("webhook_deliveries")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("webhook_id", "=", webhookId)
      .executeTakeFirstOrThrow(),
  ]);
  return { deliveries: rows.map(itemOf), total: Number(count.n) };
}

/** Thrown by the queue's handler after a failed attempt that is not the last: the queue retries it. */
export class DeliveryRetry extends Error {
  override name = "DeliveryRetry";
}

/**
 * The `webhook.deliver` job's handler (the jobs interface's JobContext): one
 * attempt; a failure before the last attempt throws, so the queue retries
 * it after the next of RETRY_DELAYS_MS.
 */
export async function runDeliveryJob(
  payload: { deliveryId: string },
  ctx: { db: Db; attempt: number; signal: AbortSignal },
): Promise<void> {
  const result = await attemptDelivery(ctx.db, payload.deliveryId, {
    final: ctx.attempt >= MAX_ATTEMPTS,
    signal: ctx.signal,
  });
  if (result?.status === "pending") throw new DeliveryRetry(result.error ?? "Not delivered");
}
