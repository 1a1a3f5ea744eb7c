import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postAllAtOnce } from "../support/parallel";
import { ApiClient, startServer, type TestServer } from "../support/server";

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startServer();
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(() => server?.stop());

let addressCounter = 0;
/** Each test speaks from its own client address (X-Forwarded-For is trusted from loopback). */
const newAddress = () => `198.51.100.${++addressCounter}`;
const visitor = (address = newAddress()) => {
  const client = new ApiClient(server.url);
  return { send: (body: unknown) => client.post("/api/contact", body, { "X-Forwarded-For": address }) };
};

const message = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "805 555 0101",
  preferredContact: "email",
  service: "research",
  message: "We would like to pilot the garden monitor.",
};

describe("POST /api/contact", () => {
  it("stores a message (201) that the admin then reads, newest first", async () => {
    const sender = visitor();
    expect((await sender.send({ ...message, name: "First sender" })).status).toBe(201);
    const answer = await sender.send({ ...message, phone: undefined, name: "Second sender" });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ status: "received" });

    const list = await admin.get("/api/admin/messages");
    expect(list.status).toBe(200);
    const [newest, previous] = list.json as Array<Record<string, unknown>>;
    expect(newest).toMatchObject({
      name: "Second sender",
      email: "ada@example.com",
      phone: null,
      preferredContact: "email",
      service: "research",
      message: "We would like to pilot the garden monitor.",
      read: false,
      notice: { status: "off", attempts: 0, error: null },
    });
    expect(previous).toMatchObject({ name: "First sender", phone: "805 555 0101" });
    expect(Date.parse(String(newest!.createdAt))).toBeGreaterThanOrEqual(Date.parse(String(previous!.createdAt)));
  });

  it("answers 400 with the required-fields text when a required field is missing", async () => {
    const sender = visitor();
    for (const field of ["name", "email", "message"]) {
      const answer = await sender.send({ ...message, [field]: "" });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: "Error: Please fill in all required fields." });
    }
  });

  it("answers a clear 400 for a bad e-mail, an unknown option or a body that is not JSON", async () => {
    const sender = visitor();
    expect((await sender.send({ ...message, email: "nobody" })).json).toEqual({
      error: "Error: Please enter a valid email address.",
    });
    const option = await sender.send({ ...message, preferredContact: "pigeon" });
    expect(option.status).toBe(400);
    expect(option.json.error).toContain("preferredContact must be one of email, phone, text");
    const service = await sender.send({ ...message, service: "catering" });
    expect(service.status).toBe(400);
    expect(service.json.error).toContain("service must be one of media, systems, research");
    expect((await sender.send("{not json")).status).toBe(400);
  });

  it("keeps a message whose honeypot is filled apart, as spam, answering 201 all the same", async () => {
    const answer = await visitor().send({ ...message, name: "Honeypot bot", website: "http://spam.example" });
    expect(answer.status).toBe(201);
    const list = (await admin.get("/api/admin/messages")).json as Array<{ name: string }>;
    expect(list.map((m) => m.name)).not.toContain("Honeypot bot");
    const spam = (await admin.get("/api/admin/messages?status=spam")).json as Array<{ name: string; status: string }>;
    expect(spam.find((m) => m.name === "Honeypot bot")).toMatchObject({ status: "spam" });
  });

  it("refuses a form sent faster than a person can type it", async () => {
    const answer = await visitor().send({ ...message, name: "Speedy bot", elapsedMs: 400 });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/quick/);
    const list = (await admin.get("/api/admin/messages")).json as Array<{ name: string }>;
    expect(list.map((m) => m.name)).not.toContain("Speedy bot");
  });

  it("throttles one address after 5 messages an hour (429 with Retry-After); other addresses go on", async () => {
    const address = newAddress();
    const sender = visitor(address);
    for (let i = 0; i < 5; i++) expect((await sender.send({ ...message, name: `Burst ${i}` })).status).toBe(201);
    const refused = await sender.send({ ...message, name: "Burst 5" });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe("Error: Too many messages from your address. Please try again later.");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await visitor().send(message)).status).toBe(201);
    const list = (await admin.get("/api/admin/messages")).json as Array<{ name: string }>;
    expect(list.map((m) => m.name)).not.toContain("Burst 5");
  });

  it("20 posts at once from one address: exactly 5 are accepted and stored, 15 get 429", async () => {
    const address = newAddress();
    const answers = await postAllAtOnce(
      Array.from({ length: 20 }, (_, i) => ({
        url: server.url,
        path: "/api/contact",
        body: { ...message, name: `Parallel ${i}` },
        headers: { "X-Forwarded-For": address },
      })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(5).fill(201), ...Array<number>(15).fill(429)]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(JSON.parse(refused.text)).toEqual({
        error: "Error: Too many messages from your address. Please try again later.",
      });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    }
    const list = (await admin.get("/api/admin/messages")).json as Array<{ name: string }>;
    expect(list.filter((m) => m.name.startsWith("Parallel "))).toHaveLength(5);
  });

  it("counts an IPv6 sender per /64", async () => {
    const network = "2001:db8:c0:1";
    for (let i = 0; i < 5; i++) expect((await visitor(`${network}::${i + 1}`).send(message)).status).toBe(201);
    expect((await visitor(`${network}:ffff:ffff:ffff:ffff`).send(message)).status).toBe(429);
    expect((await visitor("2001:db8:c0:2::1").send(message)).status).toBe(201);
  });

  it("answers a filled honeypot byte for byte as it answers a real message, headers included", async () => {
    const comparable = (answer: { status: number; text: string; headers: Headers }) => ({
      status: answer.status,
      body: answer.text,
      // Less what differs between any two answers: the date and each answer's own CSP nonce.
      headers: [...answer.headers.entries()]
        .filter(([name]) => !["date", "keep-alive"].includes(name))
        .map(([name, value]) => [name, value.replace(/'nonce-[^']*'/g, "'nonce-*'")]),
    });
    const real = await visitor().send({ ...message, name: "Real sender" });
    const bot = await visitor().send({ ...message, name: "Honeypot bot", website: "http://spam.example" });
    expect(real.status).toBe(201);
    expect(comparable(bot)).toEqual(comparable(real));
    expect(real.headers.get("cache-control")).toBe("no-store");
    const list = (await admin.get("/api/admin/messages")).json as Array<{ name: string }>;
    expect(list.map((m) => m.name)).toContain("Real sender");
    expect(list.map((m) => m.name)).not.toContain("Honeypot bot");
  });

  it("refuses a cross-origin post (403)", async () => {
    const answer = await new ApiClient(server.url).post("/api/contact", message, { Origin: "https://evil.example" });
    expect(answer.status).toBe(403);
  });
});

describe("admin messages API", () => {
  it("answers 401 without a session", async () => {
    const anonymous = new ApiClient(server.url);
    expect((await anonymous.get("/api/admin/messages")).status).toBe(401);
    expect((await anonymous.request("PATCH", "/api/admin/messages/x", { read: true })).status).toBe(401);
    expect((await anonymous.delete("/api/admin/messages/x")).status).toBe(401);
  });

  it("marks read and unread, deletes, and answers 404 for an unknown id", async () => {
    await visitor().send({ ...message, name: "To be handled" });
    const target = ((await admin.get("/api/admin/messages")).json as Array<{ id: string; name: string }>).find(
      (m) => m.name === "To be handled",
    )!;
    const read = await admin.request("PATCH", `/api/admin/messages/${target.id}`, { read: true });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id: target.id, read: true });
    expect(read.json.readAt).toBeTruthy();
    expect((await admin.request("PATCH", `/api/admin/messages/${target.id}`, { read: false })).json).toMatchObject({
      read: false,
      readAt: null,
    });
    expect((await admin.request("PATCH", `/api/admin/messages/${target.id}`, { read: "yes" })).status).toBe(400);
    expect((await admin.delete(`/api/admin/messages/${target.id}`)).status).toBe(204);
    expect((await admin.delete(`/api/admin/messages/${target.id}`)).status).toBe(404);
    expect((await admin.request("PATCH", `/api/admin/messages/${target.id}`, { read: true })).status).toBe(404);
  });
});
