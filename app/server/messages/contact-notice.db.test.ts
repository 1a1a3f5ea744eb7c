import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../../../tests/support/server";
import { mailText, startSmtpServer, type TestSmtpServer } from "../../../tests/support/smtp";
import { freePort } from "../../../tests/support/ports";

const message = {
  name: "Grace Hopper",
  email: "grace@example.com",
  phone: "805 555 0199",
  preferredContact: "text",
  service: "systems",
  message: "Our cloud bill needs governance. Can you help?",
};

let app: TestServer | undefined;
let smtp: TestSmtpServer | undefined;
afterEach(async () => {
  await app?.stop();
  await smtp?.stop();
  app = smtp = undefined;
});

async function noticeOf(admin: ApiClient, name: string) {
  const list = (await admin.get("/api/admin/messages")).json as Array<{
    name: string;
    notice: { status: string; attempts: number; error: string | null };
  }>;
  return list.find((m) => m.name === name)?.notice;
}

describe("e-mail notice of a contact message", () => {
  it("is sent to CONTACT_NOTIFY_TO through SMTP_URL after the message is stored", async () => {
    smtp = await startSmtpServer();
    app = await startServer({
      SMTP_URL: smtp.url,
      CONTACT_NOTIFY_TO: "leads@example.com",
      CONTACT_EMAIL: "hello@example.com",
    });
    const admin = new ApiClient(app.url);
    await admin.signIn();
    expect((await admin.post("/api/contact", message)).status).toBe(201);

    await expect.poll(() => smtp!.mails.length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual(["leads@example.com"]);
    expect(mail.from).toBe("hello@example.com");
    const text = mailText(mail.raw);
    expect(text).toContain("Subject: New contact message from Grace Hopper");
    expect(text).toMatch(/Reply-To: grace@example\.com/i);
    for (const line of [
      "Name: Grace Hopper",
      "Email: grace@example.com",
      "Phone: 805 555 0199",
      "Preferred Contact Method: Text",
      "Service Interest: For Systems",
      message.message,
    ]) {
      expect(text).toContain(line);
    }
    await expect
      .poll(() => noticeOf(admin, "Grace Hopper"), { timeout: 5000 })
      .toMatchObject({ status: "sent", attempts: 1, error: null });
  });

  it("goes to the address saved in Settings from the next message on, without a restart", async () => {
    smtp = await startSmtpServer();
    app = await startServer({ SMTP_URL: smtp.url, CONTACT_NOTIFY_TO: "leads@example.com" });
    const admin = new ApiClient(app.url);
    await admin.signIn();
    const saved = await admin.put("/api/admin/settings", {
      notifyEmail: "owner@ojai.example",
      contactEmail: "hello@ojai.example",
      companyName: "Ojai Notices",
    });
    expect(saved.status).toBe(200);
    expect((await admin.post("/api/contact", message)).status).toBe(201);
    await expect.poll(() => smtp!.mails.length, { timeout: 10_000 }).toBe(1);
    expect(smtp.mails[0]!.to).toEqual(["owner@ojai.example"]);
    expect(smtp.mails[0]!.from).toBe("hello@ojai.example");
    expect(mailText(smtp.mails[0]!.raw)).toMatch(/From: "?Ojai Notices"? <hello@ojai\.example>/);

    // No notice address: the contact e-mail gets it.
    expect((await admin.put("/api/admin/settings", { notifyEmail: null })).status).toBe(200);
    expect((await admin.post("/api/contact", { ...message, name: "Second Sender" })).status).toBe(201);
    await expect.poll(() => smtp!.mails.length, { timeout: 10_000 }).toBe(2);
    expect(smtp.mails[1]!.to).toEqual(["hello@ojai.example"]);
  });

  it("with no address in Settings at all, the message is kept and its notice says what to set", async () => {
    smtp = await startSmtpServer();
    app = await startServer({ SMTP_URL: smtp.url });
    const admin = new ApiClient(app.url);
    await admin.signIn();
    expect((await admin.post("/api/contact", message)).status).toBe(201);
    await expect
      .poll(() => noticeOf(admin, "Grace Hopper"), { timeout: 10_000 })
      .toMatchObject({ status: "pending", attempts: 1, error: expect.stringMatching(/set one in Admin > Settings/) });
    expect(smtp.mails).toHaveLength(0);
  });

  it("with the mail server down, keeps the message, records the failure and retries until it is delivered", async () => {
    const port = await freePort();
    app = await startServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, CONTACT_NOTIFY_TO: "leads@example.com" });
    const admin = new ApiClient(app.url);
    await admin.signIn();
    expect((await admin.post("/api/contact", message)).status).toBe(201);

    // The visitor's message is stored and readable while the mail server is down.
    await expect
      .poll(() => noticeOf(admin, "Grace Hopper"), { timeout: 10_000 })
      .toMatchObject({ status: "pending", attempts: 1 });
    expect((await noticeOf(admin, "Grace Hopper"))!.error).toBeTruthy();
    const stored = ((await admin.get("/api/admin/messages")).json as Array<{ message: string }>)[0]!;
    expect(stored.message).toBe(message.message);

    // The mail server comes back: the next retry (5 s after the first failure) delivers the notice.
    smtp = await startSmtpServer(port);
    await expect.poll(() => smtp!.mails.length, { timeout: 20_000, interval: 500 }).toBe(1);
    expect(mailText(smtp.mails[0]!.raw)).toContain(message.message);
    await expect
      .poll(() => noticeOf(admin, "Grace Hopper"), { timeout: 5000 })
      .toMatchObject({ status: "sent", attempts: 2, error: null });
    expect(app.logs.some((entry) => entry.msg === "contact notice failed; will retry")).toBe(true);
  }, 45_000);
});
