import { afterEach, describe, expect, it } from "vitest";
import { connect, type Connection } from "~/server/db/db.server";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";
import { freePort } from "../support/ports";

/**
 * The jobs through HTTP (ADR 067): a notice that keeps failing ends failed
 * after its attempts (JOB_DELAY_SCALE shortens the back-off), is listed by
 * GET /api/admin/jobs?status=failed, and runs again with
 * POST /api/admin/jobs/{id}/retry; a flood of contact messages leaves the
 * jobs table bounded: two jobs per stored message, none for a refused one,
 * and none once they are done and past JOB_RETENTION_SECONDS.
 */

let app: TestServer | undefined;
let smtp: TestSmtpServer | undefined;
let connection: Connection | undefined;
afterEach(async () => {
  await connection?.db.destroy();
  await app?.stop();
  await smtp?.stop();
  app = smtp = connection = undefined;
});

const message = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  email: "grace@example.com",
  preferredContact: "email",
  service: "systems",
  message: `A message from ${name}.`,
  ...extra,
});

function openDatabase(server: TestServer): Connection {
  const url = server.databaseUrl;
  return connect(url.startsWith("postgres") ? { kind: "postgres", url } : { kind: "sqlite", file: url });
}

interface FailedJob {
  id: string;
  kind: string;
  error: string | null;
  attempts: number;
  failedAt: string;
}

describe("failed jobs in the admin API", () => {
  it("lists a notice that failed after its attempts, and retries it", async () => {
    const port = await freePort();
    app = await startServer({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      CONTACT_NOTIFY_TO: "leads@example.com",
      JOB_DELAY_SCALE: "0.0002",
    });
    expect(app.logs.some((line) => line.msg?.toString().startsWith("JOB_DELAY_SCALE is not 1"))).toBe(true);
    const admin = new ApiClient(app.url);
    await admin.signIn();
    expect((await new ApiClient(app.url).get("/api/admin/jobs")).status).toBe(401);
    expect((await admin.get("/api/admin/jobs?status=failed")).json).toEqual([]);
    expect((await admin.post("/api/contact", message("Grace Hopper"))).status).toBe(201);

    const failed = async () => (await admin.get("/api/admin/jobs?status=failed")).json as FailedJob[];
    await expect.poll(async () => (await failed()).length, { timeout: 20_000, interval: 200 }).toBe(1);
    const listed = await admin.get("/api/admin/jobs?status=failed&limit=10&offset=0");
    expect(listed.headers.get("x-total-count")).toBe("1");
    expect(listed.headers.get("cache-control")).toBe("no-store");
    const [job] = listed.json as FailedJob[];
    expect(job).toMatchObject({ kind: "contact.notice", attempts: 6, error: expect.stringMatching(/ECONNREFUSED/) });
    const messages = (await admin.get("/api/admin/messages")).json as Array<{ notice: unknown }>;
    expect(messages[0]!.notice).toMatchObject({ status: "failed", attempts: 6 });
    expect(app.logs.filter((line) => line.msg === "contact notice failed; will retry")).toHaveLength(5);
    expect(app.logs.filter((line) => line.msg === "contact notice failed; giving up")).toHaveLength(1);

    expect((await admin.get("/api/admin/jobs?status=done")).status).toBe(400);
    expect((await admin.get("/api/admin/jobs?limit=0")).status).toBe(400);
    expect((await admin.post("/api/admin/jobs")).status).toBe(405);
    expect((await admin.get(`/api/admin/jobs/${job!.id}/retry`)).status).toBe(405);
    expect((await admin.post("/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry")).status).toBe(404);
    expect((await admin.post("/api/admin/jobs/not-an-id/retry")).status).toBe(404);
    expect((await new ApiClient(app.url).post(`/api/admin/jobs/${job!.id}/retry`)).status).toBe(401);

    // The mail server comes back; the owner retries.
    smtp = await startSmtpServer(port);
    const retried = await admin.post(`/api/admin/jobs/${job!.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.json).toEqual({ id: job!.id, kind: "contact.notice", status: "queued" });
    expect((await admin.post(`/api/admin/jobs/${job!.id}/retry`)).status).toBe(404);
    await expect.poll(() => smtp!.mails.length, { timeout: 10_000 }).toBe(1);
    await expect
      .poll(async () => ((await admin.get("/api/admin/messages")).json as Array<{ notice: unknown }>)[0]!.notice)
      .toMatchObject({ status: "sent", error: null });
    expect(await failed()).toEqual([]);
    const audit = (await admin.get("/api/admin/audit?action=job-retried")).json as Array<{ target: string }>;
    expect(audit.map((entry) => entry.target)).toEqual(["contact.notice"]);
  }, 60_000);
});

describe("a flood of contact messages", () => {
  it("leaves two jobs per stored message, none for refused ones, and none once done and past their retention", async () => {
    smtp = await startSmtpServer();
    app = await startServer({ SMTP_URL: smtp.url, CONTACT_NOTIFY_TO: "leads@example.com", JOB_RETENTION_SECONDS: "2" });
    connection = openDatabase(app);
    const db = connection.db;
    const visitor = new ApiClient(app.url);
    const from = (i: number) => ({ "X-Forwarded-For": `2001:db8:43:${i.toString(16)}::1` });
    const answers = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => visitor.post("/api/contact", message(`Sender ${i}`), from(i))),
      // One address over its throttle, and a bot filling the honeypot.
      ...Array.from({ length: 20 }, (_, i) => visitor.post("/api/contact", message(`Again ${i}`), from(1000))),
      ...Array.from({ length: 10 }, (_, i) =>
        visitor.post("/api/contact", message(`Bot ${i}`, { website: "spam" }), from(2000 + i)),
      ),
    ]);
    const stored = await db.selectFrom("contact_messages").select("status").execute();
    // The bots' messages are kept apart as spam, with no notice and no event (ADR 070).
    expect(stored.filter((row) => row.status === "new")).toHaveLength(45);
    expect(stored.filter((row) => row.status === "spam")).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
    const contactJobs = () =>
      db
        .selectFrom("jobs")
        .select(["kind", "status"])
        .where("kind", "in", ["contact.notice", "event.dispatch"])
        .execute();
    const created = await contactJobs();
    expect(created.filter((job) => job.kind === "contact.notice").length).toBeLessThanOrEqual(45);
    expect(created.filter((job) => job.kind === "event.dispatch").length).toBeLessThanOrEqual(45);

    await expect.poll(() => smtp!.mails.length, { timeout: 20_000, interval: 200 }).toBe(45);
    // Done, then pruned once past the retention (2 s; pruning every second).
    await expect.poll(async () => (await contactJobs()).length, { timeout: 15_000, interval: 250 }).toBe(0);
    const left = await db.selectFrom("jobs").select(["kind", "status"]).execute();
    expect(left.length).toBeLessThanOrEqual(5);
  }, 60_000);
});
