import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Connection } from "~/server/db/db.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { TEST_BACKEND } from "../support/backend";
import { startReceiver, type Receiver } from "../support/receiver";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";

/**
 * The webhooks API (issue 43, ADR 068) over HTTP on the backend under test:
 * the secret once, lists without it, the password asked again, the address
 * rules at save, Send test and Redeliver to a real receiver on loopback
 * (OUTBOUND_ALLOW_PRIVATE=true), each signature checked with
 * standardwebhooks' Webhook.verify.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

let server: TestServer;
let strict: TestServer;
let owner: ApiClient;
let database: Connection;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  [server, strict] = await Promise.all([startServer({ OUTBOUND_ALLOW_PRIVATE: "true" }), startServer()]);
  owner = new ApiClient(server.url);
  await owner.signIn();
  database = connect(resolveDatabase(server.databaseUrl, ROOT));
});
afterAll(async () => {
  await database?.db.destroy();
  await Promise.all([server?.stop(), strict?.stop()]);
  await receiver?.close();
});

const add = (client: ApiClient, body: Record<string, unknown>) => client.post("/api/admin/webhooks", body);

describe(`the webhooks API (${TEST_BACKEND})`, () => {
  it("asks the password again: missing 400, wrong 403, and nothing is added", async () => {
    const body = { url: receiver.url, events: ["post.published"] };
    expect((await add(owner, body)).status).toBe(400);
    expect((await add(owner, { ...body, password: "" })).status).toBe(400);
    expect((await add(owner, { ...body, password: "not-the-password" })).status).toBe(403);
    const list = await owner.get("/api/admin/webhooks");
    expect(list.json).toEqual([]);
  });

  it("answers 201 with a whsec_ secret once; lists never show it; DELETE answers 204", async () => {
    const created = await add(owner, {
      url: receiver.url,
      events: ["contact.received", "post.published"],
      password: TEST_ADMIN.password,
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      id: expect.any(String),
      url: receiver.url,
      events: ["post.published", "contact.received"],
      secret: expect.stringMatching(/^whsec_[\d+/A-Za-z]{32}$/),
    });
    const secret = created.json.secret as string;
    const list = await owner.get("/api/admin/webhooks?limit=10&offset=0");
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("1");
    expect(list.json).toEqual([
      { id: created.json.id, url: receiver.url, events: created.json.events, createdAt: expect.any(String) },
    ]);
    expect(list.text).not.toContain(secret);
    // Sealed at rest: the secret's bytes are nowhere in the row.
    const row = await database.db.selectFrom("webhooks").selectAll().executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^aes-256-gcm:/);
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));

    const removed = await owner.request("DELETE", `/api/admin/webhooks/${created.json.id}`);
    expect(removed.status).toBe(204);
    expect((await owner.request("DELETE", `/api/admin/webhooks/${created.json.id}`)).status).toBe(404);
    expect((await owner.get("/api/admin/webhooks")).json).toEqual([]);

    const audit = await owner.get("/api/admin/audit?limit=5");
    const actions = (audit.json as Array<{ action: string; target: string }>).map((e) => [e.action, e.target]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ["webhook-added", receiver.url],
        ["webhook-deleted", receiver.url],
      ]),
    );
  });

  it("refuses bad bodies and unknown events with 400", async () => {
    const password = TEST_ADMIN.password;
    for (const body of [
      { url: receiver.url, events: [], password },
      { url: receiver.url, events: ["post.deleted"], password },
      { url: receiver.url, events: "post.published", password },
      { url: "not a url", events: ["post.published"], password },
      { events: ["post.published"], password },
    ]) {
      expect((await add(owner, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("without the override, refuses loopback, private and metadata addresses at save (400)", async () => {
    const client = new ApiClient(strict.url);
    await client.signIn();
    for (const url of [
      "https://127.0.0.1/hooks",
      "https://10.0.0.1/hooks",
      "https://169.254.169.254/latest",
      "https://[::1]/hooks",
      "https://localhost/hooks",
      receiver.url,
    ]) {
      const refused = await add(client, { url, events: ["post.published"], password: TEST_ADMIN.password });
      expect(refused.status, url).toBe(400);
      expect(refused.json.error, url).toMatch(/https:\/\/|not a public address/);
    }
    expect((await client.get("/api/admin/webhooks")).json).toEqual([]);
  });

  it("Send test and Redeliver reach the receiver signed, with the same webhook-id; deliveries are newest first", async () => {
    const created = await add(owner, { url: receiver.url, events: ["post.published"], password: TEST_ADMIN.password });
    const id = created.json.id as string;
    const verifier = new Webhook(created.json.secret as string);
    receiver.received.length = 0;
    receiver.answers = [500];

    const failed = await owner.post(`/api/admin/webhooks/${id}/test`, {});
    expect(failed.status).toBe(200);
    expect(failed.json).toMatchObject({ event: "webhook.test", status: "failed", attempts: 1, lastStatusCode: 500 });
    const again = await owner.post(`/api/admin/webhooks/${id}/deliveries/${failed.json.id}/redeliver`, {});
    expect(again.json).toMatchObject({ id: failed.json.id, status: "delivered", attempts: 2, lastStatusCode: 200 });
    const second = await owner.post(`/api/admin/webhooks/${id}/test`, {});
    expect(second.json).toMatchObject({ status: "delivered", lastStatusCode: 200 });

    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([
      failed.json.id,
      failed.json.id,
      second.json.id,
    ]);
    for (const { headers, body } of receiver.received) {
      expect(verifier.verify(body, headers as Record<string, string>)).toMatchObject({
        type: "webhook.test",
        data: { webhookId: id },
      });
    }

    const log = await owner.get(`/api/admin/webhooks/${id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.headers.get("x-total-count")).toBe("2");
    expect(log.json).toEqual([
      expect.objectContaining({
        id: second.json.id,
        event: "webhook.test",
        status: "delivered",
        attempts: 1,
        lastStatusCode: 200,
      }),
      expect.objectContaining({ id: failed.json.id, status: "delivered", attempts: 2, lastStatusCode: 200 }),
    ]);
    const paged = await owner.get(`/api/admin/webhooks/${id}/deliveries?limit=1&offset=1`);
    expect(paged.json.map((d: { id: string }) => d.id)).toEqual([failed.json.id]);
    expect((await owner.get(`/api/admin/webhooks/${id}/deliveries?limit=0`)).status).toBe(400);
    expect((await owner.get("/api/admin/webhooks/no-such-webhook/deliveries")).status).toBe(404);
    expect((await owner.post("/api/admin/webhooks/no-such-webhook/test", {})).status).toBe(404);
    await owner.request("DELETE", `/api/admin/webhooks/${id}`);
  });
});
