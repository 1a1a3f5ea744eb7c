import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { startReceiver, type Receiver } from "../support/receiver";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * A webhook delivered through the jobs queue, end to end (issue 43, ADR
 * 067, 068): a contact message emits contact.received; its delivery to a
 * real receiver on loopback that answers 500 three times, then 200, arrives
 * four times with one webhook-id, each signature valid by standardwebhooks'
 * Webhook.verify. JOB_DELAY_SCALE shortens the back-off (30 s, 2 min, 10 min).
 */

let server: TestServer;
let owner: ApiClient;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.answers = [500, 500, 500, 200];
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: "true", JOB_DELAY_SCALE: "0.001" });
  owner = new ApiClient(server.url);
  await owner.signIn();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe(`a webhook through the queue (${TEST_BACKEND})`, () => {
  it("a receiver that answers 500 three times then 200 sees four deliveries with one webhook-id", async () => {
    const url = receiver.url;
    const { received } = receiver;
    const created = await owner.post("/api/admin/webhooks", {
      url,
      events: ["contact.received"],
      password: TEST_ADMIN.password,
    });
    expect(created.status).toBe(201);
    const visitor = new ApiClient(server.url);
    const sent = await visitor.post(
      "/api/contact",
      {
        name: "Ada Lovelace",
        email: "ada@example.com",
        preferredContact: "email",
        service: "research",
        message: "We would like to pilot the garden monitor.",
      },
      { "X-Forwarded-For": "198.51.100.77" },
    );
    expect(sent.status).toBe(201);

    const deadline = Date.now() + 30_000;
    while (received.length < 4 && Date.now() < deadline) await sleep(100);
    expect(received).toHaveLength(4);
    const ids = new Set(received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const verifier = new Webhook(created.json.secret as string);
    for (const { headers, body } of received) {
      expect(verifier.verify(body, headers as Record<string, string>)).toMatchObject({
        type: "contact.received",
        data: { name: "Ada Lovelace" },
      });
    }
    // Each attempt is its own: a timestamp of its own time, the same body.
    expect(new Set(received.map((r) => r.body)).size).toBe(1);

    // The log says so; no fifth attempt follows a 200.
    let log: Array<Record<string, unknown>> = [];
    while (Date.now() < deadline) {
      log = (await owner.get(`/api/admin/webhooks/${created.json.id}/deliveries`)).json;
      if (log[0]?.status === "delivered") break;
      await sleep(100);
    }
    expect(log).toEqual([
      expect.objectContaining({
        id: [...ids][0],
        event: "contact.received",
        status: "delivered",
        attempts: 4,
        lastStatusCode: 200,
      }),
    ]);
    await sleep(500);
    expect(received).toHaveLength(4);
  });
});
