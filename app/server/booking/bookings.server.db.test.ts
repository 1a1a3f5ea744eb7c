import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Availability, type BookingRequest } from "~/lib/booking";
import { formatCallTime } from "~/lib/call-time";
import { TEST_BACKEND } from "../../../tests/support/backend";
import { calendarOf, plainTextOf } from "../../../tests/support/calendar";
import { freshDatabase, type FreshDatabase } from "../../../tests/support/database";
import { startSmtpServer, type TestSmtpServer } from "../../../tests/support/smtp";
import type { Db } from "../db/db.server";
import { registeredKind } from "../jobs/registry.server";
import { init as initMail } from "../mail/index.server";
import { saveAvailability } from "./availability.server";
import {
  type Booking,
  BookingError,
  cancelBooking,
  createBooking,
  findBookingByToken,
  freeSlots,
  rescheduleBooking,
} from "./bookings.server";
import { init } from "./init.server";
import { bookingToken } from "./link-key.server";
import type { BookingMailPayload } from "./mail.server";
import { addDays, computeSlots, todayIn, type Slot } from "./slots.server";

/**
 * Bookings on the backend under test (ADR 071), with the real booking.mail
 * job run against a real SMTP server: moving a call keeps its UID, raises
 * its SEQUENCE, frees the old slot and queues the update and a new
 * reminder; cancelling frees the slot and queues the CANCEL, and the
 * cancelled call's reminder (or a moved call's old one) sends nothing when
 * its time comes; a slot taken, or within the buffer of a standing call, is
 * refused (409) whether booked or moved to. A calendar that got a lower
 * SEQUENCE after a higher one, or a reminder of a cancelled call, would
 * tell the visitor the wrong time.
 */

// The site's key (else SQLite would make a key file in ./data), the links' address and who the mails are from.
process.env.TOTP_ENCRYPTION_KEY ??= Buffer.alloc(32, 5).toString("base64");
process.env.SITE_URL = "http://booking.example";
process.env.COMPANY_NAME = "Ojai Test Co";
process.env.CONTACT_EMAIL = "hello@ojai.example";
process.env.CONTACT_NOTIFY_TO = "owner@ojai.example";

const ZONE = "America/Los_Angeles";
const availability: Availability = {
  enabled: true,
  timeZone: ZONE,
  slotMinutes: 30,
  bufferMinutes: 15,
  minNoticeHours: 0,
  horizonDays: 30,
  weekly: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: "09:00", end: "12:00" })),
  daysOff: [],
};
const origin = { sourcePage: null, source: "direct", campaign: null };

let fresh: FreshDatabase;
let db: Db;
let smtp: TestSmtpServer;
beforeAll(async () => {
  fresh = await freshDatabase();
  db = fresh.connection.db;
  smtp = await startSmtpServer();
  initMail({ url: smtp.url });
  init(fresh.connection);
  await saveAvailability(db, availability);
});
afterAll(async () => {
  await fresh?.cleanup();
  await smtp?.stop();
});
beforeEach(async () => {
  await db.deleteFrom("jobs").execute();
  await db.deleteFrom("bookings").execute();
  smtp.mails.length = 0;
});

/** The slots `days` days from today (in the owner's zone) of `hours`: far enough ahead for a reminder. */
function slotsOn(days: number, hours: Availability = availability): Slot[] {
  const date = addDays(todayIn(ZONE, new Date()), days);
  return computeSlots(hours, { from: date, to: date }, new Date());
}

let visitors = 0;
function request(start: string, extra: Partial<BookingRequest> = {}): BookingRequest {
  visitors += 1;
  return {
    start,
    name: `Visitor ${visitors}`,
    email: `visitor.${visitors}@example.com`,
    phone: null,
    message: "",
    timeZone: "Asia/Kolkata",
    ...extra,
  };
}

const book = (start: string, extra: Partial<BookingRequest> = {}, hours = availability) =>
  createBooking(db, hours, request(start, extra), origin);

async function rowOf(id: string) {
  return db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function mailJobs(bookingId: string) {
  const rows = await db
    .selectFrom("jobs")
    .select(["payload", "run_at"])
    .where("kind", "=", "booking.mail")
    .orderBy("created_at")
    .execute();
  return rows
    .map((row) => ({ ...(JSON.parse(row.payload) as BookingMailPayload), runAt: Date.parse(row.run_at) }))
    .filter((job) => job.bookingId === bookingId);
}

async function events(type: string) {
  const rows = await db.selectFrom("jobs").select("payload").where("kind", "=", "event.dispatch").execute();
  return rows
    .map((row) => JSON.parse(row.payload) as { event: string; data: Record<string, unknown> })
    .filter((payload) => payload.event === type);
}

/** Runs the booking.mail job with `payload` as the queue would; answers the mails it sent. */
async function runMail(payload: BookingMailPayload) {
  const before = smtp.mails.length;
  const kind = registeredKind("booking.mail")!;
  await kind.handler(payload, {
    db,
    enqueuedAt: new Date().toISOString(),
    attempt: 1,
    maxAttempts: kind.maxAttempts,
    jobId: "test",
    signal: new AbortController().signal,
  });
  // smtp-server keeps a mail before it answers the DATA command, so the send has it by now.
  return smtp.mails.slice(before);
}

const free = async (day: string) => freeSlots(db, availability, { from: day, to: day }, new Date());
const dayOf = (slot: Slot) => todayIn(ZONE, new Date(slot.start));

async function refusal(promise: Promise<unknown>): Promise<BookingError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BookingError);
  return error as BookingError;
}

const DAY_MS = 24 * 3_600_000;

describe(`moving a call (${TEST_BACKEND})`, () => {
  it("keeps the UID, raises SEQUENCE, frees the old slot, queues the update and a new reminder", async () => {
    const [first, , second] = slotsOn(4);
    const booking = await book(first!.start);
    const created = await rowOf(booking.id);
    expect(created).toMatchObject({
      uid: `booking-${booking.id}`,
      sequence: 0,
      slot: first!.start,
      status: "confirmed",
    });
    expect((await mailJobs(booking.id)).map(({ mail, to, sequence, runAt }) => [mail, to, sequence, runAt])).toEqual([
      ["invite", "visitor", 0, expect.any(Number)],
      ["invite", "owner", 0, expect.any(Number)],
      ["reminder", "visitor", 0, Date.parse(first!.start) - DAY_MS],
      ["reminder", "owner", 0, Date.parse(first!.start) - DAY_MS],
    ]);

    const moved = await rescheduleBooking(db, availability, booking, second!.start);
    expect(moved).toMatchObject({ id: booking.id, start: second!.start, end: second!.end, status: "confirmed" });
    expect(await rowOf(booking.id)).toMatchObject({
      uid: created.uid,
      sequence: 1,
      slot: second!.start,
      start_at: second!.start,
      end_at: second!.end,
    });
    const later = (await mailJobs(booking.id)).slice(4);
    expect(later.map(({ mail, to, sequence, runAt }) => [mail, to, sequence, runAt])).toEqual([
      ["update", "visitor", 1, expect.any(Number)],
      ["update", "owner", 1, expect.any(Number)],
      ["reminder", "visitor", 1, Date.parse(second!.start) - DAY_MS],
      ["reminder", "owner", 1, Date.parse(second!.start) - DAY_MS],
    ]);
    // The lead in the inbox follows the call.
    const lead = await db
      .selectFrom("contact_messages")
      .select(["call_start", "call_end", "call_status"])
      .where("id", "=", booking.messageId!)
      .executeTakeFirstOrThrow();
    expect(lead).toEqual({ call_start: second!.start, call_end: second!.end, call_status: "booked" });

    // The old slot is free again, and another visitor can have it.
    const slots = await free(dayOf(first!));
    expect(slots).toContainEqual(first);
    expect(slots).not.toContainEqual(second);
    await expect(book(first!.start)).resolves.toMatchObject({ start: first!.start });

    // The update carries the same UID at SEQUENCE 1 and the new times; the old reminder sends nothing.
    const [update] = await runMail({ bookingId: booking.id, mail: "update", to: "visitor", sequence: 1 });
    expect(calendarOf(update!.raw)).toMatchObject({
      method: "REQUEST",
      uid: created.uid,
      sequence: 1,
      start: second!.start,
      end: second!.end,
    });
    expect(await runMail({ bookingId: booking.id, mail: "reminder", to: "visitor", sequence: 0 })).toEqual([]);
    const [reminder] = await runMail({ bookingId: booking.id, mail: "reminder", to: "visitor", sequence: 1 });
    expect(calendarOf(reminder!.raw)).toMatchObject({ uid: created.uid, sequence: 1, start: second!.start });
    // In the visitor's zone, with the link to manage the call.
    const text = plainTextOf(reminder!.raw);
    expect(text).toContain(formatCallTime(second!.start, "Asia/Kolkata"));
    expect(text).toContain(`http://booking.example/book/manage/${await bookingToken(booking.id)}`);
  });

  it("refuses a slot another call holds or is within the buffer of (409), and one not offered (400)", async () => {
    const [first, second, third] = slotsOn(5);
    const mine = await book(first!.start);
    const theirs = await book(second!.start);
    expect((await refusal(rescheduleBooking(db, availability, mine, second!.start))).status).toBe(409);
    expect((await refusal(rescheduleBooking(db, availability, mine, "2000-01-01T17:00:00.000Z"))).status).toBe(400);
    const offGrid = new Date(Date.parse(third!.start) + 5 * 60_000).toISOString();
    expect((await refusal(rescheduleBooking(db, availability, mine, offGrid))).status).toBe(400);
    // Nothing changed by the refusals.
    expect(await rowOf(mine.id)).toMatchObject({ sequence: 0, slot: first!.start });
    expect(await rowOf(theirs.id)).toMatchObject({ sequence: 0, slot: second!.start });
    expect((await mailJobs(mine.id)).map((job) => job.mail)).not.toContain("update");

    // Ranges that touch: 09:00-09:30 and 09:30-10:00 offer both; once one is
    // booked the other is 10 minutes short of the buffer, not offered, and
    // refused when booked or moved to.
    const touching: Availability = {
      ...availability,
      weekly: [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
        { day, start: "09:00", end: "09:30" },
        { day, start: "09:30", end: "10:00" },
        { day, start: "11:00", end: "11:30" },
      ]),
    };
    const [early, next, late] = slotsOn(6, touching);
    expect(Date.parse(next!.start)).toBe(Date.parse(early!.end));
    const standing = await book(early!.start, {}, touching);
    const range = dayOf(early!);
    const left = await freeSlots(db, touching, { from: range, to: range }, new Date());
    expect(left).toEqual([late]);
    const neighbour = await refusal(book(next!.start, {}, touching));
    expect(neighbour.status).toBe(409);
    const elsewhere = await book(late!.start, {}, touching);
    expect((await refusal(rescheduleBooking(db, touching, elsewhere, next!.start))).status).toBe(409);
    expect(await rowOf(standing.id)).toMatchObject({ slot: early!.start, status: "confirmed" });
  });

  it("of a cancelled call is refused (409)", async () => {
    const [first, second] = slotsOn(7);
    const { booking } = await cancelBooking(db, await book(first!.start));
    expect((await refusal(rescheduleBooking(db, availability, booking, second!.start))).status).toBe(409);
  });
});

describe(`cancelling a call (${TEST_BACKEND})`, () => {
  it("frees the slot, marks it cancelled, queues the CANCEL; its reminder sends nothing when run", async () => {
    const [slot] = slotsOn(8);
    const booking = await book(slot!.start, { email: "Cancel.Me+calls@example.com" });
    const token = await bookingToken(booking.id);
    expect(await findBookingByToken(db, token)).toMatchObject({ id: booking.id, status: "confirmed" });
    expect(await free(dayOf(slot!))).not.toContainEqual(slot);

    const cancelled = await cancelBooking(db, (await findBookingByToken(db, token))!);
    expect(cancelled.changed).toBe(true);
    expect(cancelled.booking.status).toBe("cancelled");
    const row = await rowOf(booking.id);
    expect(row).toMatchObject({ status: "cancelled", slot: null, sequence: 1, uid: `booking-${booking.id}` });
    expect(row.cancelled_at).not.toBeNull();
    expect(await findBookingByToken(db, token)).toMatchObject({ status: "cancelled" });
    expect(await free(dayOf(slot!))).toContainEqual(slot);
    const lead = await db
      .selectFrom("contact_messages")
      .select("call_status")
      .where("id", "=", booking.messageId!)
      .executeTakeFirstOrThrow();
    expect(lead.call_status).toBe("cancelled");

    const jobs = await mailJobs(booking.id);
    expect(jobs.filter((job) => job.mail === "cancel").map(({ to, sequence }) => [to, sequence])).toEqual([
      ["visitor", 1],
      ["owner", 1],
    ]);
    expect((await events("booking.cancelled")).map((event) => event.data.id)).toEqual([booking.id]);

    // Cancelling again changes nothing and queues nothing.
    expect((await cancelBooking(db, (await findBookingByToken(db, token))!)).changed).toBe(false);
    // Loaded while it still stood: the update finds it cancelled.
    expect(await cancelBooking(db, booking)).toEqual({ booking: { ...booking, status: "cancelled" }, changed: false });
    expect(await mailJobs(booking.id)).toHaveLength(jobs.length);
    expect(await rowOf(booking.id)).toMatchObject({ sequence: 1 });
    expect(await events("booking.cancelled")).toHaveLength(1);

    // The reminder queued with the booking comes due: nothing is sent, to
    // either; nor is a stale invitation; the CANCEL goes, SEQUENCE 1.
    const reminders = jobs.filter((job) => job.mail === "reminder");
    expect(reminders).toHaveLength(2);
    for (const reminder of reminders) expect(await runMail(reminder)).toEqual([]);
    expect(await runMail({ bookingId: booking.id, mail: "invite", to: "visitor", sequence: 0 })).toEqual([]);
    const [cancel] = await runMail({ bookingId: booking.id, mail: "cancel", to: "visitor", sequence: 1 });
    expect(cancel!.to).toEqual(["Cancel.Me+calls@example.com"]);
    expect(calendarOf(cancel!.raw)).toMatchObject({
      partMethod: "CANCEL",
      method: "CANCEL",
      uid: row.uid,
      sequence: 1,
      status: "CANCELLED",
      start: slot!.start,
    });

    // The slot can be booked again: a new booking, a new UID.
    const again = await book(slot!.start);
    expect((await rowOf(again.id)).uid).not.toBe(row.uid);
  });

  it("a forged, truncated or foreign token finds nothing", async () => {
    const [slot] = slotsOn(9);
    const booking = await book(slot!.start);
    const token = await bookingToken(booking.id);
    const [id, mac] = token.split(".") as [string, string];
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("0") ? "1" : "0"}`;
    for (const bad of [
      `${id}.${flipped}`,
      `${id}.${mac.slice(0, -1)}`,
      id,
      `${id}.`,
      `00000000-0000-4000-8000-000000000000.${mac}`,
      "x".repeat(200),
    ])
      expect(await findBookingByToken(db, bad), bad).toBeUndefined();
  });
});

describe(`open bookings per mailbox (${TEST_BACKEND})`, () => {
  it("counts spellings of one mailbox together: the fourth open call is refused (409, email); a cancelled one frees room", async () => {
    const slots = slotsOn(10);
    const spellings = ["Pat@Example.com", "pat+work@example.com", "PAT+x@EXAMPLE.COM", "pat@example.com"];
    const made: Booking[] = [];
    for (const [i, email] of spellings.slice(0, 3).entries()) made.push(await book(slots[i]!.start, { email }));
    const fourth = await refusal(book(slots[3]!.start, { email: spellings[3] }));
    expect([fourth.status, fourth.field]).toEqual([409, "email"]);
    await cancelBooking(db, made[0]!);
    await expect(book(slots[3]!.start, { email: spellings[3] })).resolves.toMatchObject({ start: slots[3]!.start });
  });
});
