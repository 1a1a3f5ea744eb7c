import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelBooking } from "~/server/booking/index.server";
import { connect, type Connection } from "~/server/db/db.server";
import { init as initMail } from "~/server/mail/index.server";
import { resolveDatabase } from "~/server/platform/config.server";
import { createTestDatabase, TEST_BACKEND } from "../support/backend";
import { calendarOf, headerOf } from "../support/calendar";
import { ApiClient, startServer, type TestServer } from "../support/server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp";

/**
 * A booked call's reminder a day before (ADR 071), with two app processes
 * running the job workers on one database and a real SMTP server, as a
 * load-balanced site runs: when it comes due, the visitor and the owner each
 * get exactly one reminder, the same event at the same SEQUENCE; a call
 * cancelled before its reminder is due gets none at all. A reminder sent
 * twice, or for a call that no longer stands, is the kind of mail people
 * remember.
 *
 * PostgreSQL only: it is the load-balanced deployment, where the workers of
 * several processes claim from one queue over the network. The claim itself
 * is proven on both backends by jobs-processes.db.test.ts; this file adds
 * booking's jobs on top, and two servers' start is the most of its time.
 */

const ROOT = new URL("../..", import.meta.url).pathname;
/** Calls start at least 26 hours ahead, so each one's reminder (24 hours before) is at least 2 hours away: queued. */
const HOURS = {
  enabled: true,
  timeZone: "Europe/Berlin",
  slotMinutes: 30,
  bufferMinutes: 0,
  minNoticeHours: 26,
  horizonDays: 14,
  weekly: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: "09:00", end: "17:00" })),
  daysOff: [],
};

let a: TestServer;
let b: TestServer;
let smtp: TestSmtpServer;
let connection: Connection;
let dropDatabase: () => Promise<void>;

/** The mail the booking.mail job sent for `bookingId` (its Message-ID names booking, mail, recipient and SEQUENCE). */
const sent = (bookingId: string, mail: string) =>
  smtp.mails.filter((m) => headerOf(m.raw, "Message-ID")?.startsWith(`<booking.${bookingId}.${mail}.`));

async function reminderJobs() {
  const rows = await connection.db
    .selectFrom("jobs")
    .select(["id", "payload", "status", "run_at"])
    .where("kind", "=", "booking.mail")
    .execute();
  return rows
    .map((row) => ({ ...row, payload: JSON.parse(row.payload) as { bookingId: string; mail: string; to: string } }))
    .filter((row) => row.payload.mail === "reminder");
}

describe.runIf(TEST_BACKEND === "postgres")("a reminder with two processes on one PostgreSQL database", () => {
  beforeAll(async () => {
    const database = await createTestDatabase(TEST_BACKEND, { migrated: true });
    dropDatabase = database.drop;
    smtp = await startSmtpServer();
    const env = {
      DATABASE_URL: database.url,
      SMTP_URL: smtp.url,
      COMPANY_NAME: "Ojai Reminder Co",
      CONTACT_EMAIL: "hello@ojai.example",
      CONTACT_NOTIFY_TO: "owner@ojai.example",
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    connection = connect(resolveDatabase(database.url, ROOT));
    // This process only queues (cancelBooking, as the manage page does); the servers send.
    initMail({ url: smtp.url });
  }, 60_000);
  afterAll(async () => {
    await connection?.db.destroy();
    await Promise.all([a?.stop(), b?.stop()]);
    await dropDatabase?.();
    await smtp?.stop();
  });

  it("reaches the visitor and the owner once each; a call cancelled before it is due gets none", async () => {
    const owner = new ApiClient(a.url);
    await owner.signIn();
    expect((await owner.put("/api/admin/booking", HOURS)).status).toBe(200);
    const slots = (await new ApiClient(b.url).get("/api/booking/slots")).json.slots as Array<{
      start: string;
      end: string;
    }>;
    expect(Date.parse(slots[0]!.start)).toBeGreaterThan(Date.now() + 26 * 3_600_000 - 60_000);

    // One booked through each process.
    const kept = await new ApiClient(a.url).post(
      "/api/booking",
      { start: slots[0]!.start, name: "Kim Kept", email: "kim@example.com" },
      { "X-Forwarded-For": "198.51.100.1" },
    );
    const dropped = await new ApiClient(b.url).post(
      "/api/booking",
      { start: slots[1]!.start, name: "Dee Dropped", email: "dee@example.com" },
      { "X-Forwarded-For": "198.51.100.2" },
    );
    expect([kept.status, dropped.status]).toEqual([201, 201]);
    const keptId = kept.json.id as string;
    const droppedId = dropped.json.id as string;
    // The invitations first: 2 each, so that nothing but reminders is left to send.
    await expect
      .poll(() => [sent(keptId, "invite").length, sent(droppedId, "invite").length], { timeout: 15_000 })
      .toEqual([2, 2]);

    // Dee cancels before the reminder is due; the CANCEL goes out instead.
    const row = await connection.db
      .selectFrom("bookings")
      .selectAll()
      .where("id", "=", droppedId)
      .executeTakeFirstOrThrow();
    await cancelBooking(connection.db, {
      id: row.id,
      start: row.start_at,
      end: row.end_at,
      status: row.status,
      name: row.name,
      timeZone: row.time_zone,
      messageId: row.message_id,
    });
    await expect.poll(() => sent(droppedId, "cancel").length, { timeout: 15_000 }).toBe(2);

    // The test's clock: each call is more than a day away, so its reminders
    // wait until 24 hours before it. Moving their run_at to now is the day
    // passing; the two processes' workers find them due on their next poll.
    const reminders = await reminderJobs();
    expect(reminders.map((job) => [job.payload.bookingId, job.payload.to, job.status]).sort()).toEqual(
      [
        [droppedId, "owner", "queued"],
        [droppedId, "visitor", "queued"],
        [keptId, "owner", "queued"],
        [keptId, "visitor", "queued"],
      ].sort(),
    );
    for (const job of reminders)
      expect(Date.parse(job.run_at)).toBe(
        Date.parse(job.payload.bookingId === keptId ? slots[0]!.start : slots[1]!.start) - 24 * 3_600_000,
      );
    await connection.db
      .updateTable("jobs")
      .set({ run_at: new Date().toISOString() })
      .where(
        "id",
        "in",
        reminders.map((job) => job.id),
      )
      .execute();

    // Every reminder job ran to its end (sent, or found its call cancelled and sent nothing)...
    await expect
      .poll(async () => (await reminderJobs()).map((job) => job.status), { timeout: 15_000, interval: 100 })
      .toEqual(["done", "done", "done", "done"]);
    // ...and what reached the mail server: one each for Kim's call, none for Dee's.
    const keptReminders = sent(keptId, "reminder");
    expect(keptReminders.map((mail) => mail.to).sort()).toEqual([["kim@example.com"], ["owner@ojai.example"]]);
    for (const mail of keptReminders)
      expect(calendarOf(mail.raw)).toMatchObject({
        method: "REQUEST",
        uid: `booking-${keptId}`,
        sequence: 0,
        start: slots[0]!.start,
        end: slots[0]!.end,
      });
    expect(sent(droppedId, "reminder")).toEqual([]);
    expect(smtp.mails.filter((mail) => mail.to.includes("dee@example.com")).length).toBe(2);
    // Both processes were up throughout, their workers polling the one queue.
    expect(a.stderr() + b.stderr()).toBe("");
  }, 60_000);
});
