import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { mailText, startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { freePort } from "../support/ports";

/**
 * Issue 44, the lead desk (ADR 070), over HTTP on a real server and a real
 * SMTP server: a message's status, note and follow-up day round-trip and
 * filter; where it came from; replies reach the mail server threaded under
 * the notice, once per idempotency key, and wait while the mail server is
 * down; the acknowledgement is off by default and at most one an hour per
 * address; spam is kept apart and can be moved back; a client that runs no
 * script still reaches the inbox.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({
    SMTP_URL: smtp.url,
    CONTACT_EMAIL: "hello@ojai.example",
    CONTACT_NOTIFY_TO: "leads@ojai.example",
    JOB_DELAY_SCALE: "0.01",
  });
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

let addressCounter = 0;
const message = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
  preferredContact: "email",
  service: "systems",
  message: "We would like help moving our records to the cloud this winter.",
  ...extra,
});

/** Sends a message as a visitor of its own address; answers the stored message as the admin sees it. */
async function send(name: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const visitor = new ApiClient(server.url);
  const answer = await visitor.post("/api/contact", message(name, extra), {
    "X-Forwarded-For": `203.0.113.${++addressCounter}`,
    ...headers,
  });
  expect(answer.status, answer.text).toBe(201);
  return find(name);
}

async function find(name: string, query = "?status=all") {
  const separator = query ? "&" : "?";
  const list = await admin.get(`/api/admin/messages${query}${separator}q=${encodeURIComponent(name)}&limit=100`);
  expect(list.status, list.text).toBe(200);
  return (list.json as Array<Record<string, any>>).find((m) => m.name === name);
}

const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));

describe("a lead's status, note and follow-up", () => {
  it("starts new, round-trips through PATCH and GET, filters by status and is audited", async () => {
    const lead = await send("Pat Pipeline");
    expect(lead).toMatchObject({ status: "new", note: null, followUpAt: null, replies: [] });

    const changed = await admin.request("PATCH", `/api/admin/messages/${lead!.id}`, {
      status: "qualified",
      note: "  Wants a quote before January.  ",
      followUpAt: "2026-12-03",
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({
      status: "qualified",
      note: "Wants a quote before January.",
      followUpAt: "2026-12-03",
    });
    const read = await admin.get(`/api/admin/messages/${lead!.id}`);
    expect(read.json).toMatchObject({ id: lead!.id, status: "qualified", followUpAt: "2026-12-03" });

    // An ISO instant is kept as its UTC day; null clears.
    const instant = await admin.request("PATCH", `/api/admin/messages/${lead!.id}`, {
      followUpAt: "2026-12-04T22:30:00Z",
    });
    expect(instant.json.followUpAt).toBe("2026-12-04");

    expect(await find("Pat Pipeline", "?status=qualified")).toBeDefined();
    expect(await find("Pat Pipeline", "?status=new")).toBeUndefined();
    expect(await find("Pat Pipeline", "")).toBeDefined();

    const audit = await admin.get("/api/admin/audit?action=lead-updated");
    expect(JSON.stringify(audit.json)).toContain(
      `${lead!.id}: status new → qualified; note changed; follow-up 2026-12-03`,
    );
  });

  it("sorts by follow-up day, messages without one last", async () => {
    const later = await send("Fay Later");
    const sooner = await send("Fay Sooner");
    await send("Fay None");
    await admin.request("PATCH", `/api/admin/messages/${later!.id}`, { followUpAt: "2030-02-01" });
    await admin.request("PATCH", `/api/admin/messages/${sooner!.id}`, { followUpAt: "2030-01-01" });
    const list = await admin.get("/api/admin/messages?sort=follow-up&q=fay");
    expect((list.json as Array<{ name: string }>).map((m) => m.name)).toEqual(["Fay Sooner", "Fay Later", "Fay None"]);
  });

  it.each([
    [{ status: "archived" }, "status must be one of new, contacted, qualified, won, lost, spam"],
    [{ followUpAt: "2026-02-30" }, "followUpAt must be a date"],
    [{ followUpAt: "tomorrow" }, "followUpAt must be a date"],
    [{ note: "x".repeat(5001) }, "note is too long"],
    [{ note: 5 }, "note must be text or null"],
    [{ note: "a\u0000b" }, "note contains a character that cannot be stored"],
    [{ owner: "me" }, "Send a JSON object with any of status, note, followUpAt and read"],
    [{}, "Send a JSON object with any of status, note, followUpAt and read"],
  ])("refuses %j with 400, changing nothing", async (body, error) => {
    const lead = await send(`Bad Patch ${++addressCounter}`);
    const answer = await admin.request("PATCH", `/api/admin/messages/${lead!.id}`, body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toContain(error);
    expect((await admin.get(`/api/admin/messages/${lead!.id}`)).json).toMatchObject({ status: "new", note: null });
  });

  it("answers 404 for an unknown message and 401 without a session", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await admin.get(`/api/admin/messages/${unknown}`)).status).toBe(404);
    expect((await admin.request("PATCH", `/api/admin/messages/${unknown}`, { status: "won" })).status).toBe(404);
    expect((await new ApiClient(server.url).get(`/api/admin/messages/${unknown}`)).status).toBe(401);
  });
});

describe("where a lead came from", () => {
  it("a client that runs no script is accepted: no page, source direct", async () => {
    const lead = await send("Curl Client");
    expect(lead).toMatchObject({ status: "new", sourcePage: null, source: "direct", campaign: null });
  });

  it("keeps the page it was sent from and the source and campaign its sender's visit came with", async () => {
    const browser = {
      "X-Forwarded-For": "198.51.100.77",
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36",
    };
    const visitor = new ApiClient(server.url);
    const view = await visitor.get("/about?utm_source=newsletter&utm_campaign=winter", {
      ...browser,
      Accept: "text/html",
      "Sec-Fetch-Dest": "document",
    });
    expect(view.status).toBe(200);
    const sent = await visitor.post("/api/contact", message("Una Utm"), { ...browser, Referer: `${server.url}/about` });
    expect(sent.status).toBe(201);
    expect(await find("Una Utm")).toMatchObject({ sourcePage: "/about", source: "newsletter", campaign: "winter" });
  });
});

describe("replies", () => {
  it("reach the sender from the contact e-mail, threaded under the notice, quoting the message; new becomes contacted", async () => {
    const lead = await send("Rita Reply");
    await expect.poll(() => mailsTo("leads@ojai.example").some((m) => m.raw.includes("Rita Reply"))).toBe(true);
    const notice = mailsTo("leads@ojai.example").find((m) => m.raw.includes("Rita Reply"))!;
    const noticeId = /^Message-ID: (<[^>\r\n]+>)/im.exec(notice.raw)?.[1];
    expect(noticeId).toBe(`<contact.${lead!.id}@localhost>`);

    const answer = await admin.post(`/api/admin/messages/${lead!.id}/replies`, { body: "Happy to help, Rita." });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.json).toMatchObject({ body: "Happy to help, Rita.", status: "pending" });

    await expect.poll(() => mailsTo("rita.reply@example.com").length).toBe(1);
    const mail = mailsTo("rita.reply@example.com")[0]!;
    expect(mail.from).toBe("hello@ojai.example");
    const text = mailText(mail.raw);
    expect(text).toMatch(new RegExp(`^In-Reply-To: ${noticeId}`, "im"));
    expect(text).toMatch(new RegExp(`^References: ${noticeId}`, "im"));
    expect(text).toContain("Happy to help, Rita.");
    expect(text).toContain("> We would like help moving our records to the cloud this winter.");

    await expect
      .poll(async () => (await admin.get(`/api/admin/messages/${lead!.id}`)).json)
      .toMatchObject({
        status: "contacted",
        replies: [{ id: answer.json.id, status: "sent", body: "Happy to help, Rita." }],
      });
  });

  it("sent in parallel with one Idempotency-Key make one reply and one e-mail", async () => {
    const lead = await send("Ivy Idem");
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        admin.post(`/api/admin/messages/${lead!.id}/replies`, { body: "Once only." }, { "Idempotency-Key": "ivy-1" }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    await expect.poll(() => mailsTo("ivy.idem@example.com").length).toBe(1);
    const replies = (await admin.get(`/api/admin/messages/${lead!.id}`)).json.replies as unknown[];
    expect(replies).toEqual([expect.objectContaining({ id: answers[0]!.json.id })]);
    await expect
      .poll(async () => (await admin.get(`/api/admin/messages/${lead!.id}`)).json.replies[0].status)
      .toBe("sent");
    expect(mailsTo("ivy.idem@example.com")).toHaveLength(1);
  });

  it("refuses an empty, oversized or unknown-message reply", async () => {
    const lead = await send("Ned Nothing");
    expect((await admin.post(`/api/admin/messages/${lead!.id}/replies`, { body: "   " })).status).toBe(400);
    expect((await admin.post(`/api/admin/messages/${lead!.id}/replies`, { body: "x".repeat(10_001) })).status).toBe(
      400,
    );
    expect((await admin.post(`/api/admin/messages/${lead!.id}/replies`, {})).status).toBe(400);
    expect((await admin.post(`/api/admin/messages/${lead!.id}/replies`, { body: "a\u0000b" })).status).toBe(400);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await admin.post(`/api/admin/messages/${unknown}/replies`, { body: "Hi" })).status).toBe(404);
    expect((await admin.get(`/api/admin/messages/${lead!.id}`)).json.replies).toEqual([]);
  });
});

describe("saved replies", () => {
  it("are added, listed by name, changed and deleted", async () => {
    const added = await admin.post("/api/admin/saved-replies", { name: "Quote", body: "Here is our quote." });
    expect(added.status, added.text).toBe(201);
    expect((await admin.post("/api/admin/saved-replies", { name: "", body: "x" })).status).toBe(400);
    const changed = await admin.put(`/api/admin/saved-replies/${added.json.id}`, { name: "Quote", body: "Our quote." });
    expect(changed.json).toMatchObject({ name: "Quote", body: "Our quote." });
    expect((await admin.get("/api/admin/saved-replies")).json).toEqual([expect.objectContaining({ name: "Quote" })]);
    expect((await admin.delete(`/api/admin/saved-replies/${added.json.id}`)).status).toBe(204);
    expect((await admin.get("/api/admin/saved-replies")).json).toEqual([]);
  });
});

describe("the acknowledgement", () => {
  it("is off by default; on, each mailbox gets at most one an hour, threaded under the notice", async () => {
    await send("Ack Off");
    expect((await admin.get("/api/admin/acknowledgement")).json).toEqual({ enabled: false, text: null });

    const saved = await admin.put("/api/admin/acknowledgement", {
      enabled: true,
      text: "Thanks {name}, from {company}.",
    });
    expect(saved.json).toEqual({ enabled: true, text: "Thanks {name}, from {company}." });
    const first = await send("Ack On", { email: "ack.on@example.com" });
    await send("Ack On Again", { email: "ACK.ON@example.com" });
    await send("Ack On Tagged", { email: "ack.on+leads@example.com" });
    await send("Ack Other", { email: "ack.other@example.com" });
    const acks = () => mailsTo("ack.other@example.com").length + mailsTo("ack.on@example.com").length;
    await expect.poll(acks).toBe(2);
    // The second message's, had it been queued, was queued before the third's and has been sent by now.
    expect(mailsTo("ack.other@example.com")).toHaveLength(1);
    expect(mailsTo("ack.on@example.com").length + mailsTo("ACK.ON@example.com").length).toBe(1);
    const text = mailText(mailsTo("ack.on@example.com")[0]!.raw);
    expect(text).toContain("Thanks Ack On, from");
    expect(text).toMatch(/^Auto-Submitted: auto-replied/im);
    expect(mailsTo("ack.on+leads@example.com")).toHaveLength(0);
    expect(text).toMatch(new RegExp(`^In-Reply-To: <contact.${first!.id}@localhost>`, "im"));
    expect(mailsTo("ack.off@example.com")).toHaveLength(0);
    expect((await admin.put("/api/admin/acknowledgement", { enabled: "yes" })).status).toBe(400);
    // Turned off without a text: the owner's text stays for next time.
    expect((await admin.put("/api/admin/acknowledgement", { enabled: false })).json).toEqual({
      enabled: false,
      text: "Thanks {name}, from {company}.",
    });
  });
});

describe("spam", () => {
  it("a filled honeypot or a links-only message is kept apart as spam, with no notice, and can be moved back", async () => {
    await send("Honey Bot", { website: "http://spam.example" });
    await send("Link Bot", { message: "https://cheap.example/pills https://cheap.example/more buy" });
    expect(await find("Honey Bot", "")).toBeUndefined();
    const honey = await find("Honey Bot", "?status=spam");
    expect(honey).toMatchObject({ status: "spam", spamReason: "honeypot", notice: { status: "off" } });
    expect(await find("Link Bot", "?status=spam")).toMatchObject({ spamReason: "links-only" });

    const back = await admin.request("PATCH", `/api/admin/messages/${honey!.id}`, { status: "new" });
    expect(back.json.status).toBe("new");
    expect(await find("Honey Bot", "")).toBeDefined();
  });

  it("a message with a link and words of its own is not spam", async () => {
    const lead = await send("Real Person", { message: "Our current site is https://shop.example and it is slow." });
    expect(lead).toMatchObject({ status: "new", spamReason: null });
  });
});

describe("a reply while the mail server is down", () => {
  let down: TestServer | undefined;
  let late: TestSmtpServer | undefined;
  afterAll(async () => {
    await down?.stop();
    await late?.stop();
  });

  it("waits, then is sent once the mail server is back; without a contact e-mail it is refused first", async () => {
    const port = await freePort();
    down = await startServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, JOB_DELAY_SCALE: "0.01" });
    const owner = new ApiClient(down.url);
    await owner.signIn();
    const visitor = new ApiClient(down.url);
    expect((await visitor.post("/api/contact", message("Dora Down"))).status).toBe(201);
    const [lead] = (await owner.get("/api/admin/messages")).json as Array<{ id: string }>;

    const refused = await owner.post(`/api/admin/messages/${lead!.id}/replies`, { body: "Hello" });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toContain("set one in Admin > Settings");
    expect((await owner.put("/api/admin/settings", { contactEmail: "hello@down.example" })).status).toBe(200);

    const sent = await owner.post(`/api/admin/messages/${lead!.id}/replies`, { body: "Sorry for the wait." });
    expect(sent.status).toBe(202);
    await expect
      .poll(async () => (await owner.get(`/api/admin/messages/${lead!.id}`)).json.replies[0], { timeout: 10_000 })
      .toMatchObject({ status: "pending", error: expect.any(String) });

    late = await startSmtpServer(port);
    await expect
      .poll(() => late!.mails.filter((m) => m.to.includes("dora.down@example.com")).length, { timeout: 20_000 })
      .toBe(1);
    await expect
      .poll(async () => (await owner.get(`/api/admin/messages/${lead!.id}`)).json.replies[0], { timeout: 10_000 })
      .toMatchObject({ status: "sent", error: null });
  }, 45_000);
});
