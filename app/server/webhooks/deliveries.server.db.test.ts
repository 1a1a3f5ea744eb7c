import type dns from "node:dns";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../../../tests/support/backend";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { startReceiver } from "../../../tests/support/receiver";
import type { Db } from "../db/db.server";
import type { LookupFunction } from "../outbound/index.server";
import { DeliveryRetry, RETRY_DELAYS_MS } from "./deliveries.server";
import {
  attemptDelivery,
  createEventDeliveries,
  createWebhook,
  DELIVERIES_PER_WEBHOOK,
  deleteWebhook,
  listDeliveries,
  MAX_ATTEMPTS,
  redeliver,
  runDeliveryJob,
  sendTest,
  WebhookError,
} from "./index.server";

/**
 * Webhook deliveries on the backend under test (ADR 068), to a real receiver
 * on loopback, each signature checked with standardwebhooks' Webhook.verify.
 * The queue's retries are the handler run again with the next attempt
 * number, as the jobs domain runs it.
 */

// The site's key (else SQLite would make a key file in ./data) and loopback receivers.
process.env.TOTP_ENCRYPTION_KEY ??= Buffer.alloc(32, 9).toString("base64");
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

/** A receiver that answers each request with the next of `statuses` (the last one after that), or never. */
async function receiver(statuses: Array<number | "silent">) {
  const started = await startReceiver();
  started.answers = statuses.slice(0, -1);
  started.status = statuses.at(-1)!;
  return started;
}

const job = (db: Db, attempt: number) => ({ db, attempt, jobId: "job", signal: new AbortController().signal });
let eventNumber = 0;
const event = (type = "contact.received") => ({
  id: `event-${++eventNumber}`,
  type,
  occurredAt: new Date().toISOString(),
  data: { messageId: `message-${eventNumber}` },
});

describe(`webhook deliveries (${TEST_BACKEND})`, () => {
  let database: FreshDatabase;
  let db: Db;
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    database = await freshDatabase();
    db = database.connection.db;
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
    await db.deleteFrom("webhooks").execute();
  });
  afterAll(() => database?.cleanup());

  it("a receiver that answers 500 three times then 200 gets four signed attempts with one webhook-id", async () => {
    const hook = await receiver([500, 500, 500, 200]);
    closers.push(hook.close);
    const webhook = await createWebhook(db, { url: hook.url, events: ["contact.received"] });
    expect(webhook.secret).toMatch(/^whsec_[\d+/A-Za-z]{32}$/);
    const [delivery, ...others] = await createEventDeliveries(db, event());
    expect(others).toEqual([]);

    for (let attempt = 1; attempt <= 3; attempt++) {
      await expect(runDeliveryJob({ deliveryId: delivery!.id }, job(db, attempt))).rejects.toBeInstanceOf(
        DeliveryRetry,
      );
    }
    await runDeliveryJob({ deliveryId: delivery!.id }, job(db, 4));

    expect(hook.received).toHaveLength(4);
    const verifier = new Webhook(webhook.secret);
    for (const { headers, body } of hook.received) {
      expect(headers["webhook-id"]).toBe(delivery!.id);
      expect(headers["content-type"]).toBe("application/json");
      const verified = verifier.verify(body, headers as Record<string, string>) as Record<string, unknown>;
      expect(verified).toMatchObject({ type: "contact.received", data: { messageId: `message-${eventNumber}` } });
    }
    // The same bytes each time; another secret does not verify.
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
    const wrong = new Webhook(`whsec_${Buffer.alloc(24, 1).toString("base64")}`);
    expect(() => wrong.verify(hook.received[0]!.body, hook.received[0]!.headers as Record<string, string>)).toThrow();

    const { deliveries } = await listDeliveries(db, webhook.id, { limit: 10, offset: 0 });
    expect(deliveries).toEqual([
      expect.objectContaining({ id: delivery!.id, status: "delivered", attempts: 4, lastStatusCode: 200 }),
    ]);
    // A job run again after success (a lost lease) sends nothing more.
    await runDeliveryJob({ deliveryId: delivery!.id }, job(db, 5));
    expect(hook.received).toHaveLength(4);
  });

  it("retries at least 3 more times over at least 10 minutes, the first within 60 s; the last attempt marks it failed", async () => {
    expect(MAX_ATTEMPTS - 1).toBeGreaterThanOrEqual(3);
    expect(RETRY_DELAYS_MS[0]).toBeLessThanOrEqual(60_000);
    expect(RETRY_DELAYS_MS.slice(0, 3).reduce((a, b) => a + b)).toBeGreaterThanOrEqual(10 * 60_000);

    const hook = await receiver([503]);
    closers.push(hook.close);
    const webhook = await createWebhook(db, { url: hook.url, events: ["post.published"] });
    const [delivery] = await createEventDeliveries(db, event("post.published"));
    await expect(runDeliveryJob({ deliveryId: delivery!.id }, job(db, MAX_ATTEMPTS - 1))).rejects.toThrow(/503/);
    await runDeliveryJob({ deliveryId: delivery!.id }, job(db, MAX_ATTEMPTS));
    const { deliveries } = await listDeliveries(db, webhook.id, { limit: 10, offset: 0 });
    expect(deliveries[0]).toMatchObject({ status: "failed", attempts: 2, lastStatusCode: 503 });
    expect(deliveries[0]!.lastError).toMatch(/answered 503/);
  });

  it("an event makes one delivery per webhook that takes it, however often it is handled", async () => {
    const hook = await receiver([200]);
    closers.push(hook.close);
    const contact = await createWebhook(db, { url: hook.url, events: ["contact.received", "post.published"] });
    await createWebhook(db, { url: hook.url, events: ["booking.created"] });
    const message = event("contact.received");
    const first = await createEventDeliveries(db, message);
    const second = await createEventDeliveries(db, message);
    expect(first).toEqual([{ id: expect.any(String), webhookId: contact.id }]);
    expect(second).toEqual(first);
    expect((await listDeliveries(db, contact.id, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it("Send test and Redeliver send now, Redeliver with the same webhook-id; the log is newest first", async () => {
    const hook = await receiver([500, 204]);
    closers.push(hook.close);
    const webhook = await createWebhook(db, { url: hook.url, events: ["post.published"] });
    const test = await sendTest(db, webhook.id);
    expect(test).toMatchObject({ event: "webhook.test", status: "failed", attempts: 1, lastStatusCode: 500 });
    const again = await redeliver(db, webhook.id, test.id);
    expect(again).toMatchObject({ id: test.id, status: "delivered", attempts: 2, lastStatusCode: 204 });
    expect(hook.received.map((r) => r.headers["webhook-id"])).toEqual([test.id, test.id]);
    const second = await sendTest(db, webhook.id);
    const { deliveries } = await listDeliveries(db, webhook.id, { limit: 10, offset: 0 });
    expect(deliveries.map((d) => d.id)).toEqual([second.id, test.id]);
    await expect(redeliver(db, webhook.id, "no-such-delivery")).rejects.toMatchObject({ status: 404 });
  });

  it("the secret is stored sealed, never as it was shown", async () => {
    const webhook = await createWebhook(db, { url: "http://127.0.0.1:9/x", events: ["post.published"] });
    const row = await db.selectFrom("webhooks").selectAll().where("id", "=", webhook.id).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^aes-256-gcm:/);
    expect(JSON.stringify(row)).not.toContain(webhook.secret.slice("whsec_".length));
  });

  it("refuses loopback, private and metadata addresses at save without the override", async () => {
    for (const url of [
      "https://127.0.0.1/x",
      "https://10.0.0.1/x",
      "https://169.254.169.254/x",
      "https://[::1]/x",
      "https://localhost/x",
      "http://93.184.215.14/x",
    ]) {
      const refused = await createWebhook(db, { url, events: ["post.published"] }, { allowPrivate: false }).catch(
        (e: unknown) => e,
      );
      expect(refused, url).toBeInstanceOf(WebhookError);
      expect((refused as WebhookError).status).toBe(400);
    }
    expect(await db.selectFrom("webhooks").select("id").execute()).toEqual([]);
  });

  it("a name that resolved to a public address at save and to loopback at delivery is refused at connect", async () => {
    const hook = await receiver([200]);
    closers.push(hook.close);
    const answer = { address: "93.184.215.14" };
    const lookup = ((_host: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
      if (options.all) callback(null, [{ address: answer.address, family: 4 }]);
      else callback(null, answer.address, 4);
    }) as unknown as LookupFunction;
    const url = `https://hooks.example.com:${hook.port}/hooks`;
    const webhook = await createWebhook(db, { url, events: ["post.published"] }, { allowPrivate: false, lookup });
    answer.address = "127.0.0.1";
    const [delivery] = await createEventDeliveries(db, event("post.published"));
    const result = await attemptDelivery(db, delivery!.id, { final: true, allowPrivate: false, lookup });
    expect(result).toMatchObject({ status: "failed", statusCode: null });
    expect(result!.error).toMatch(/127\.0\.0\.1 is not a public address/);
    expect(hook.received).toEqual([]);
    await deleteWebhook(db, webhook.id);
  });

  it("a receiver that never answers times out after 10 s", { timeout: 20_000 }, async () => {
    const hook = await receiver(["silent"]);
    closers.push(hook.close);
    const webhook = await createWebhook(db, { url: hook.url, events: ["post.published"] });
    const started = Date.now();
    const test = await sendTest(db, webhook.id);
    const elapsed = Date.now() - started;
    expect(test).toMatchObject({ status: "failed", lastStatusCode: null, lastError: "No answer within 10 s" });
    expect(elapsed).toBeGreaterThanOrEqual(9_500);
    expect(elapsed).toBeLessThan(15_000);
  });

  it("stays bounded: a webhook keeps its newest deliveries, and old ones go", async () => {
    const hook = await receiver([200]);
    closers.push(hook.close);
    const webhook = await createWebhook(db, { url: hook.url, events: ["contact.received"] });
    const extra = 25;
    for (let i = 0; i < DELIVERIES_PER_WEBHOOK + extra; i++) await createEventDeliveries(db, event());
    const { total, deliveries } = await listDeliveries(db, webhook.id, { limit: 1, offset: 0 });
    expect(total).toBe(DELIVERIES_PER_WEBHOOK);
    expect(deliveries[0]!.event).toBe("contact.received");
    const newest = await db
      .selectFrom("webhook_deliveries")
      .select("event_id")
      .where("event_id", "=", `event-${eventNumber}`)
      .executeTakeFirst();
    expect(newest).toBeDefined();
    // A row past its age goes with the next delivery made.
    await db
      .updateTable("webhook_deliveries")
      .set({ created_at: "2000-01-01T00:00:00.000Z" })
      .where("event_id", "=", `event-${eventNumber}`)
      .execute();
    await createEventDeliveries(db, event());
    const old = await db.selectFrom("webhook_deliveries").select("id").where("created_at", "<", "2001").execute();
    expect(old).toEqual([]);
  });
});
