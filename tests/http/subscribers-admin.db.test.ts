import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertRows } from "../support/insert-rows";
import { mailingRow, subscriberRow } from "../support/newsletter-rows";
import { postRow } from "../support/post-row";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { mailText, startSmtpServer, type TestSmtpServer } from "../support/smtp";

/**
 * The owner's side of the newsletter (issue 46, ADR 072) over HTTP on the
 * built server and a real SMTP server: GET /api/admin/subscribers paged and
 * filtered by status and by part of the address, with X-Total-Count and a
 * 400 naming a bad parameter; one subscriber read and removed (204, then
 * 404, audited by id); the CSV export (BOM, header, formulas neutralised);
 * the import, confirmed with the owner's word for their consent, else
 * pending with a confirmation e-mail each, its bad lines named; the
 * mailings' list; 401 for every call without a session. And the
 * /admin/subscribers screen: its empty states, its 400, and its import and
 * removal through its own form posts.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let admin: ApiClient;

interface Subscriber {
  id: string;
  email: string;
  status: "pending" | "confirmed" | "unsubscribed";
  consent: "form" | "import";
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({
    SMTP_URL: smtp.url,
    COMPANY_NAME: "Ojai Letters Co",
    CONTACT_EMAIL: "hello@ojai.example",
    JOB_DELAY_SCALE: "0.01",
  });
  admin = new ApiClient(server.url);
  await admin.signIn();
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** The screen as a document, signed in. */
async function screen(search = "") {
  const answer = await admin.get(`/admin/subscribers${search}`);
  return { status: answer.status, html: answer.text };
}

async function list(search = ""): Promise<{ items: Subscriber[]; total: number }> {
  const answer = await admin.get(`/api/admin/subscribers${search}`);
  expect(answer.status, answer.text).toBe(200);
  return { items: answer.json, total: Number(answer.headers.get("x-total-count")) };
}

const importCsv = (csv: unknown, consented: unknown) => admin.post("/api/admin/subscribers/import", { csv, consented });

/** Waits until the SMTP server has a mail to `to`. */
async function mailTo(to: string) {
  for (let i = 0; i < 200; i++) {
    const mail = smtp.mails.find((candidate) => candidate.to.includes(to));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail reached ${to}`);
}

describe("before anyone signs up", () => {
  it("the screen says where the sign-up form is, and that no post was e-mailed", async () => {
    const { status, html } = await screen();
    expect(status).toBe(200);
    expect(html).toContain("<h1");
    expect(html).toContain(
      "No subscribers yet. The sign-up form is at the end of each article, on the blog and in the footer.",
    );
    expect(html).toContain("No post has been e-mailed yet.");
    expect(html).toContain("0 confirmed, 0 pending, 0 unsubscribed");
    // Nothing to export yet.
    expect(html).not.toContain('href="/api/admin/subscribers.csv"');
    expect((await list()).total).toBe(0);
  });

  it("the screen's filter: a bad status is a 400, All and an empty one are every status", async () => {
    expect((await screen("?status=bogus")).status).toBe(400);
    expect((await screen("?page=0")).status).toBe(400);
    expect((await screen("?status=all&q=")).status).toBe(200);
    expect((await screen("?status=")).status).toBe(200);
  });
});

describe("the list", () => {
  beforeAll(async () => {
    await insertRows(server.databaseUrl, "subscribers", [
      subscriberRow("ann@list.example", "confirmed", { days: 9 }),
      subscriberRow("bob@list.example", "confirmed", { consent: "import", days: 8 }),
      subscriberRow("cat_under@list.example", "confirmed", { days: 7 }),
      subscriberRow("dan@list.example", "pending", { days: 2 }),
      subscriberRow("eve@other.example", "pending", { days: 1 }),
      subscriberRow("fay@list.example", "unsubscribed", { days: 5 }),
      subscriberRow("=sum@formula.example", "confirmed", { days: 4 }),
    ]);
  });

  it("answers every subscriber, newest first, with X-Total-Count and the contract's fields", async () => {
    const { items, total } = await list();
    expect(total).toBe(7);
    expect(items.map((s) => s.email)).toEqual([
      "eve@other.example",
      "dan@list.example",
      "=sum@formula.example",
      "fay@list.example",
      "cat_under@list.example",
      "bob@list.example",
      "ann@list.example",
    ]);
    const bob = items.find((s) => s.email === "bob@list.example")!;
    expect(Object.keys(bob).sort()).toEqual(
      ["id", "email", "status", "consent", "createdAt", "confirmedAt", "unsubscribedAt"].sort(),
    );
    expect(bob).toMatchObject({ status: "confirmed", consent: "import", unsubscribedAt: null });
    expect(items.find((s) => s.email === "fay@list.example")!.unsubscribedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const answer = await admin.get("/api/admin/subscribers");
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it("pages with limit and offset", async () => {
    const first = await list("?limit=2");
    expect(first.total).toBe(7);
    expect(first.items.map((s) => s.email)).toEqual(["eve@other.example", "dan@list.example"]);
    const third = await list("?limit=2&offset=4");
    expect(third.items.map((s) => s.email)).toEqual(["cat_under@list.example", "bob@list.example"]);
  });

  it("filters by status and by part of the address, together, any case, % and _ as themselves", async () => {
    expect((await list("?status=pending")).items.map((s) => s.email)).toEqual([
      "eve@other.example",
      "dan@list.example",
    ]);
    expect((await list("?status=unsubscribed")).items.map((s) => s.email)).toEqual(["fay@list.example"]);
    expect((await list("?status=confirmed")).total).toBe(4);
    expect((await list("?q=LIST.example")).total).toBe(5);
    expect((await list("?status=pending&q=list")).items.map((s) => s.email)).toEqual(["dan@list.example"]);
    expect((await list("?q=_")).items.map((s) => s.email)).toEqual(["cat_under@list.example"]);
    expect((await list("?q=%25")).total).toBe(0);
    expect((await list("?q=nobody")).total).toBe(0);
  });

  it.each([
    ["?status=bogus", "status must be pending, confirmed or unsubscribed"],
    ["?status=", "status"],
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?limit=ten", "limit"],
    ["?offset=-1", "offset"],
    [`?q=${"a".repeat(201)}`, "q is too long"],
  ])("answers 400 for %s, naming it", async (search, named) => {
    const answer = await admin.get(`/api/admin/subscribers${search}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toContain(named);
  });

  it("the screen shows a page of them, with the summary, in words", async () => {
    const { status, html } = await screen("?status=pending");
    expect(status).toBe(200);
    expect(html).toContain("4 confirmed, 2 pending, 1 unsubscribed");
    expect(html).toContain("dan@list.example");
    expect(html).not.toContain("ann@list.example");
    expect(html).toContain("2 subscribers.");
    expect(html).toContain('href="/api/admin/subscribers.csv"');
    expect((await screen("?q=nobody")).html).toContain("No subscribers match.");
  });

  it("exports every subscriber as CSV: a BOM, the header line, formulas neutralised", async () => {
    const response = await fetch(`${server.url}/api/admin/subscribers.csv`, { headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1).split("\r\n");
    expect(lines[0]).toBe("email,status,consent,created_at,confirmed_at,unsubscribed_at");
    // Oldest first, one line each and a last empty one.
    expect(lines).toHaveLength(9);
    expect(lines[1]).toMatch(/^ann@list\.example,confirmed,form,\d{4}-[^,]+,\d{4}-[^,]+,$/);
    expect(lines.find((line) => line.startsWith("bob@"))).toMatch(/^bob@list\.example,confirmed,import,/);
    expect(lines.find((line) => line.startsWith("fay@"))).toMatch(/,unsubscribed,form,[^,]+,[^,]+,\d{4}-/);
    expect(lines.find((line) => line.includes("sum@"))).toMatch(/^'=sum@formula\.example,/);
  });
});

describe("one subscriber", () => {
  it("is read by id, removed with 204, then 404; the audit log names the id, not the address", async () => {
    const [dan] = (await list("?q=dan@")).items;
    const one = await admin.get(`/api/admin/subscribers/${dan!.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(dan);
    const removed = await admin.delete(`/api/admin/subscribers/${dan!.id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await admin.delete(`/api/admin/subscribers/${dan!.id}`)).status).toBe(404);
    expect((await admin.get(`/api/admin/subscribers/${dan!.id}`)).status).toBe(404);
    expect((await list("?q=dan@")).total).toBe(0);
    const audit = await admin.get("/api/admin/audit?action=subscriber-removed");
    const targets = (audit.json as Array<{ target: string }>).map((entry) => entry.target);
    expect(targets).toContain(`subscriber ${dan!.id}`);
    expect(targets.join(" ")).not.toContain("dan@");
  });

  it("answers 404 for an id that is not one", async () => {
    expect((await admin.get("/api/admin/subscribers/not-an-id")).status).toBe(404);
    expect((await admin.delete("/api/admin/subscribers/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});

describe("the import", () => {
  it("with the owner's word for their consent adds them confirmed, and e-mails nobody", async () => {
    const before = smtp.mails.length;
    const answer = await importCsv(
      "Gus@Import.example\nhal@import.example\nann@list.example\ngus@import.example\n",
      true,
    );
    expect(answer.status, answer.text).toBe(200);
    // ann is on the list already; gus twice in the file.
    expect(answer.json).toEqual({ added: 2, confirmed: 2, pending: 0, skipped: 2, problems: [] });
    const { items } = await list("?q=@import.example");
    expect(items.map((s) => [s.email, s.status, s.consent])).toEqual(
      expect.arrayContaining([
        ["gus@import.example", "confirmed", "import"],
        ["hal@import.example", "confirmed", "import"],
      ]),
    );
    expect(items.every((s) => s.confirmedAt !== null)).toBe(true);
    const audit = await admin.get("/api/admin/audit?action=subscribers-imported");
    expect((audit.json as Array<{ target: string }>).map((entry) => entry.target)).toContain(
      "2 subscribers (consented)",
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.length).toBe(before);
  });

  it("without it adds them pending, and each gets a confirmation e-mail", async () => {
    const answer = await importCsv("email,name\r\nivy@pending.example,Ivy\r\njon@pending.example,Jon\r\n", false);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ added: 2, confirmed: 0, pending: 2, skipped: 0, problems: [] });
    const { items } = await list("?q=@pending.example");
    expect(items.map((s) => [s.status, s.consent])).toEqual([
      ["pending", "import"],
      ["pending", "import"],
    ]);
    for (const to of ["ivy@pending.example", "jon@pending.example"]) {
      const mail = await mailTo(to);
      expect(mailText(mail.raw)).toMatch(/\/newsletter\/confirm\/[\w.-]+/);
    }
  });

  it("names each bad line and adds the good ones", async () => {
    const answer = await importCsv('email\nkim@lines.example\nnot-an-address\n\n"open quote@lines.example\n', true);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ added: 1, confirmed: 1, pending: 0 });
    expect(answer.json.problems).toEqual([
      { line: 3, message: '"not-an-address" is not an e-mail address' },
      { line: 5, message: "a quoted field is not closed" },
    ]);
  });

  it.each([
    [{ consented: true }, "csv must be the file's text"],
    [{ csv: "a@b.example" }, "consented must be true or false"],
    [{ csv: "a@b.example", consented: "yes" }, "consented must be true or false"],
    [{ csv: "a@b.example\0", consented: true }, "cannot be stored"],
    [{ csv: `${"x".repeat(1_000_000)}@b.example`, consented: true }, "too large"],
  ])("answers 400 for %#: %s", async (body, message) => {
    const answer = await admin.post("/api/admin/subscribers/import", body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toContain(message);
  });
});

describe("the screen's forms", () => {
  /** Posts the import form as a browser without the page's script does. */
  async function postImport(file: Blob | undefined, consent?: string) {
    const form = new FormData();
    if (file) form.append("file", file, "list.csv");
    if (consent) form.append("consent", consent);
    const response = await fetch(`${server.url}/admin/subscribers`, {
      method: "POST",
      body: form,
      headers: { Cookie: admin.cookie },
      redirect: "manual",
    });
    return { status: response.status, html: await response.text() };
  }

  it("imports a file with consent and says what it did", async () => {
    const answer = await postImport(new Blob(["\uFEFFlee@screen.example\nnope\n"], { type: "text/csv" }), "yes");
    expect(answer.status).toBe(200);
    expect(answer.html).toContain("Added 1 (1 confirmed, 0 pending); 0 already on the list.");
    expect(answer.html).toContain("Line 2: &quot;nope&quot; is not an e-mail address");
    expect((await list("?q=lee@screen")).items.map((s) => [s.status, s.consent])).toEqual([["confirmed", "import"]]);
  });

  it.each([
    ["no file", undefined, "yes", "Choose a CSV file to import."],
    ["no choice", new Blob(["a@b.example"]), undefined, "Choose whether these people asked for the newsletter."],
    ["a binary file", new Blob([new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])]), "no", "The file is not a CSV text file."],
    ["a file over 1 MB", new Blob(["x".repeat(1_000_001)]), "yes", "The file is too large (1 MB at most)."],
  ])("refuses %s and says so", async (_what, file, consent, message) => {
    const answer = await postImport(file, consent);
    expect(answer.status).toBe(400);
    expect(answer.html).toContain(message);
  });

  it("removes a subscriber and says who", async () => {
    const [kim] = (await list("?q=kim@lines")).items;
    const post = (id: string) =>
      fetch(`${server.url}/admin/subscribers`, {
        method: "POST",
        body: new URLSearchParams({ intent: "remove", id }),
        headers: { Cookie: admin.cookie },
      });
    const removed = await post(kim!.id);
    expect(removed.status).toBe(200);
    expect(await removed.text()).toContain("kim@lines.example was removed from the list.");
    const again = await post(kim!.id);
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("That subscriber was already removed.");
    const audit = await admin.get("/api/admin/audit?action=subscriber-removed");
    expect((audit.json as Array<{ target: string }>).map((entry) => entry.target)).toContain(`subscriber ${kim!.id}`);
  });
});

describe("the mailings", () => {
  it("answers each post e-mailed, newest first, with its numbers", async () => {
    const older = postRow("older-mailed", "2026-01-05T10:00:00.000Z");
    const newer = postRow("newer-mailed", "2026-01-06T10:00:00.000Z");
    await insertRows(server.databaseUrl, "posts", [older, newer]);
    const done = mailingRow(older.id, { status: "done", recipients: 5, sent: 4, failed: 1 });
    const sending = mailingRow(newer.id, { status: "sending", recipients: 6, sent: 2, failed: 0 });
    await insertRows(server.databaseUrl, "newsletter_mailings", [done, sending]);

    const answer = await admin.get("/api/admin/newsletter/mailings");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-total-count")).toBe("2");
    expect(answer.json).toEqual([
      {
        id: sending.id,
        postId: newer.id,
        title: "newer-mailed",
        slug: "newer-mailed",
        status: "sending",
        recipients: 6,
        sent: 2,
        failed: 0,
        createdAt: sending.created_at,
        finishedAt: null,
      },
      {
        id: done.id,
        postId: older.id,
        title: "older-mailed",
        slug: "older-mailed",
        status: "done",
        recipients: 5,
        sent: 4,
        failed: 1,
        createdAt: done.created_at,
        finishedAt: done.finished_at,
      },
    ]);
    expect((await admin.get("/api/admin/newsletter/mailings?limit=1&offset=1")).json).toHaveLength(1);
    expect((await admin.get("/api/admin/newsletter/mailings?limit=0")).status).toBe(400);

    const { html } = await screen();
    expect(html).toContain("Sending...");
    expect(html).toContain('href="/admin?q=older-mailed"');
  });
});

describe("without a session", () => {
  it("every call answers 401, and the screen sends to the sign-in page", async () => {
    const visitor = new ApiClient(server.url);
    const id = "00000000-0000-4000-8000-000000000000";
    expect((await visitor.get("/api/admin/subscribers")).status).toBe(401);
    expect((await visitor.get(`/api/admin/subscribers/${id}`)).status).toBe(401);
    expect((await visitor.delete(`/api/admin/subscribers/${id}`)).status).toBe(401);
    expect((await visitor.get("/api/admin/subscribers.csv")).status).toBe(401);
    expect((await visitor.post("/api/admin/subscribers/import", { csv: "a@b.example", consented: true })).status).toBe(
      401,
    );
    expect((await visitor.get("/api/admin/newsletter/mailings")).status).toBe(401);
    const page = await visitor.get("/admin/subscribers");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/admin\/login/);
  });
});
