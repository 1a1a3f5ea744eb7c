import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../support/backend";
import { postAllAtOnce } from "../support/parallel";
import { startReceiver, type Receiver } from "../support/receiver";
import { ApiClient, startServer, TEST_ADMIN, type TestServer } from "../support/server";
import { mailText, startSmtpServer, type TestSmtpServer } from "../support/smtp";

/**
 * The newsletter's sign-up over HTTP on the built server and a real SMTP
 * server (issue 46, ADR 072): POST /api/subscribe answers 202 the same for
 * every address and sends one confirmation e-mail a day; its link's GET
 * changes nothing, its POST confirms (and fires subscriber.confirmed); a
 * forged link is a 404; the per-client and per-mailbox limits hold, in
 * parallel too; input PostgreSQL cannot store, or too much of it, is a 400 or
 * 413, never a 500.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let admin: ApiClient;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpServer();
  server = await startServer({
    SMTP_URL: smtp.url,
    COMPANY_NAME: "Ojai Letters",
    CONTACT_EMAIL: "hello@ojai.example",
    OUTBOUND_ALLOW_PRIVATE: "true",
    JOB_DELAY_SCALE: "0.01",
  });
  admin = new ApiClient(server.url);
  await admin.signIn();
  const hook = await admin.post("/api/admin/webhooks", {
    url: receiver.url,
    events: ["subscriber.confirmed"],
    password: TEST_ADMIN.password,
  });
  expect(hook.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await receiver?.close();
});

/** Each test's requests come from their own client address (the server trusts loopback's X-Forwarded-For). */
let clients = 0;
const fromClient = () => ({ "X-Forwarded-For": `198.51.100.${++clients}` });

const subscribe = (body: unknown, headers: Record<string, string> = fromClient()) =>
  fetch(`${server.url}/api/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));

async function waitFor<T>(what: string, read: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const statusOf = async (email: string) => {
  const list = await admin.get(`/api/admin/subscribers?q=${encodeURIComponent(email)}`);
  return (list.json as Array<{ email: string; status: string }>).find((s) => s.email === email)?.status;
};

const confirmLinkOf = (raw: string) => {
  const match = /https?:\/\/\S+\/newsletter\/confirm\/[\w.-]+/.exec(mailText(raw));
  if (!match) throw new Error(`no confirmation link in\n${raw}`);
  // The site's address in the e-mail (SITE_URL) is not the test server's port.
  return server.url + new URL(match[0]).pathname;
};

describe(`newsletter sign-up (${TEST_BACKEND})`, () => {
  it("answers 202 the same for a new, a repeated and a confirmed address; one confirmation e-mail a day", async () => {
    const first = await subscribe({ email: "reader@example.com" });
    expect(first.status).toBe(202);
    const answer = await first.json();
    const mail = await waitFor("the confirmation e-mail", () => mailsTo("reader@example.com")[0]);
    expect(mail.raw).toMatch(/^Subject: Confirm your subscription to Ojai Letters/m);
    expect(await statusOf("reader@example.com")).toBe("pending");

    const again = await subscribe({ email: "  Reader@Example.com " });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(answer);
    const unknown = await subscribe({ email: "someone-else@example.com" });
    expect(await unknown.json()).toEqual(answer);
    await waitFor("the other address's e-mail", () => mailsTo("someone-else@example.com")[0]);
    await sleep(300);
    expect(mailsTo("reader@example.com")).toHaveLength(1);
  });

  it("opening the link changes nothing; its button's POST confirms once and fires subscriber.confirmed", async () => {
    await subscribe({ email: "confirm-me@example.com" });
    const link = confirmLinkOf((await waitFor("the e-mail", () => mailsTo("confirm-me@example.com")[0])).raw);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await page.text()).toContain("Confirm my subscription");
    // A mail scanner that follows the link twice, and a HEAD.
    await fetch(link);
    await fetch(link, { method: "HEAD" });
    expect(await statusOf("confirm-me@example.com")).toBe("pending");

    const confirmed = await fetch(link, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("You are subscribed");
    expect(await statusOf("confirm-me@example.com")).toBe("confirmed");
    const hook = await waitFor("the webhook", () =>
      receiver.events().find((h) => h.data.email === "confirm-me@example.com"),
    );
    expect(hook.type).toBe("subscriber.confirmed");

    // Pressed again: already subscribed, and no second event.
    const twice = await fetch(link, { method: "POST", body: "" });
    expect(await twice.text()).toContain("already subscribed");
    await sleep(300);
    expect(receiver.events().filter((h) => h.data.email === "confirm-me@example.com")).toHaveLength(1);
    // A confirmed address that signs up again gets nothing.
    await subscribe({ email: "confirm-me@example.com" });
    await sleep(300);
    expect(mailsTo("confirm-me@example.com")).toHaveLength(1);
  });

  it("Safari before 16.4 (Origin: null, no Sec-Fetch-Site) confirms from the link's page; elsewhere that is refused", async () => {
    await subscribe({ email: "old-safari@example.com" });
    const link = confirmLinkOf((await waitFor("the e-mail", () => mailsTo("old-safari@example.com")[0])).raw);
    const asOldSafari = { "Content-Type": "application/x-www-form-urlencoded", Origin: "null" };
    const elsewhere = await fetch(`${server.url}/api/subscribe`, {
      method: "POST",
      headers: { ...asOldSafari, "Content-Type": "application/json" },
      body: JSON.stringify({ email: "elsewhere@example.com" }),
    });
    expect(elsewhere.status).toBe(403);
    const confirmed = await fetch(link, { method: "POST", headers: asOldSafari, body: "" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("You are subscribed");
    expect(await statusOf("old-safari@example.com")).toBe("confirmed");
  });

  it("a forged, altered or other kind of link is a 404 and confirms nothing", async () => {
    await subscribe({ email: "forged@example.com" });
    const link = confirmLinkOf((await waitFor("the e-mail", () => mailsTo("forged@example.com")[0])).raw);
    const token = link.slice(link.lastIndexOf("/") + 1);
    const [id, mac] = token.split(".");
    const flipped = `${id}.${mac!.slice(0, -1)}${mac!.endsWith("0") ? "1" : "0"}`;
    for (const path of [
      `/newsletter/confirm/${flipped}`,
      `/newsletter/confirm/${id}`,
      `/newsletter/confirm/${"a".repeat(5000)}`,
      `/newsletter/unsubscribe/${token}`,
    ]) {
      const get = await fetch(server.url + path);
      expect(get.status, path).toBe(404);
      const post = await fetch(server.url + path, { method: "POST", body: "" });
      expect(post.status, path).toBe(404);
    }
    expect(await statusOf("forged@example.com")).toBe("pending");
  });

  it("refuses a malformed address, NUL bytes and an over-long body without a 500", async () => {
    for (const body of [{ email: "not-an-address" }, { email: "" }, {}, { email: 42 }]) {
      const response = await subscribe(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ field: "email" });
    }
    expect((await subscribe({ email: "a\u0000@example.com" })).status).toBe(400);
    expect((await subscribe("{not json")).status).toBe(400);
    expect((await subscribe({ email: `${"a".repeat(70_000)}@example.com` })).status).toBe(413);
    expect((await fetch(`${server.url}/api/subscribe`)).status).toBe(405);
  });

  it("one client gets 20 sign-ups an hour, however many it sends at once", async () => {
    const headers = { "X-Forwarded-For": "203.0.113.77" };
    const answers = await postAllAtOnce(
      Array.from({ length: 30 }, (_, i) => ({
        url: server.url,
        path: "/api/subscribe",
        body: { email: `flood-${i}@example.net` },
        headers,
      })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it("one mailbox gets 3 confirmation e-mails a day however its address is spelled", async () => {
    for (const tag of ["a", "b", "c", "d", "e"]) await subscribe({ email: `victim+${tag}@example.org` });
    await waitFor("three e-mails", () =>
      smtp.mails.filter((m) => m.to[0]?.startsWith("victim+")).length >= 3 ? true : undefined,
    );
    await sleep(500);
    expect(smtp.mails.filter((m) => m.to[0]?.startsWith("victim+"))).toHaveLength(3);
  });

  it("parallel sign-ups of one new address keep one subscriber and send one e-mail", async () => {
    const body = JSON.stringify({ email: "race@example.com" });
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(`${server.url}/api/subscribe`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": `192.0.2.${i + 1}` },
          body,
        }).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array(10).fill(202));
    await waitFor("the e-mail", () => mailsTo("race@example.com")[0]);
    await sleep(300);
    expect(mailsTo("race@example.com")).toHaveLength(1);
    const list = await admin.get("/api/admin/subscribers?q=race%40");
    expect(list.json).toHaveLength(1);
  });
});
