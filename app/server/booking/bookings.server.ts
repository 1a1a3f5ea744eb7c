import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { type Availability, BOOKING_LIMITS, type BookingRequest } from "~/lib/booking";
import { bookingErrors } from "~/content/booking";
import { bookingMail } from "~/content/booking-mail";
import { mailboxOf } from "~/lib/email";
import type { LeadOrigin } from "../analytics/index.server";
import { isUniqueViolation, type Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import { isRecordId } from "../db/ids.server";
import { emit, enqueue } from "../jobs/index.server";
import { getMailer } from "../mail/index.server";
import { setLeadCall, storeBookingLead } from "../messages/index.server";
import { bookingIdOf } from "./link-key.server";
import { bookingMailJob, type BookingMailPayload } from "./mail.server";
import { addDays, computeSlots, offeredSlot, type Slot, startOfDay } from "./slots.server";

/**
 * Bookings (ADR 071): made, moved and cancelled, each in one transaction
 * with its lead, its e-mails' jobs and its event.
 *
 * Exactly one of any number of parallel bookings of a slot wins: the row's
 * `slot` column (the start, while the booking stands) is unique, and the
 * loser's insert fails on it (409), whatever the dialect and however many
 * processes. The per-address limit on open bookings is counted in the same
 * transaction, which on PostgreSQL first takes a transaction-level advisory
 * lock (SQLite runs one write transaction at a time anyway), so parallel
 * requests cannot all count the same "two so far".
 */

export class BookingError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
    readonly field = "start",
    /** Lost a race for the slot: the attempt is given back to the address's throttle; nothing else is. */
    readonly raceLost = false,
  ) {
    super(message);
  }
}

const slotTaken = () => new BookingError(409, bookingErrors.taken, "start", true);
/** A call moves at most this many times (its SEQUENCE counts the changes): each move sends two e-mails. */
const MAX_CHANGES = 10;

export interface Booking {
  id: string;
  start: string;
  end: string;
  status: "confirmed" | "cancelled";
  name: string;
  /** The visitor's zone for showing the time, else the owner's. */
  timeZone: string | null;
  messageId: string | null;
}

/** PostgreSQL's advisory lock key for booking writes: any fixed number no other lock uses. */
const BOOKING_LOCK = 710_045;
/** No reminder for a call booked less than this before its reminder would go: the confirmation is fresh. */
const REMINDER_MIN_LEAD_MS = 2 * 60 * 60_000;
const REMINDER_BEFORE_MS = 24 * 60 * 60_000;

/** The booking a link's token names, or undefined (a mistyped or forged token, a deleted booking). */
export async function findBookingByToken(db: Db, token: string): Promise<Booking | undefined> {
  const id = await bookingIdOf(token);
  if (!id) return undefined;
  const row = await db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toBooking(row) : undefined;
}

/** A booking by its id (the owner's screens), or undefined. */
export async function findBooking(db: Db, id: string): Promise<Booking | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toBooking(row) : undefined;
}

const toBooking = (row: {
  id: string;
  start_at: string;
  end_at: string;
  status: "confirmed" | "cancelled";
  name: string;
  time_zone: string | null;
  message_id: string | null;
}): Booking => ({
  id: row.id,
  start: row.start_at,
  end: row.end_at,
  status: row.status,
  name: row.name,
  timeZone: row.time_zone,
  messageId: row.message_id,
});

/** Serialises booking writes on PostgreSQL for the rest of `trx`. */
async function lockBookings(trx: Db): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${BOOKING_LOCK})`.execute(trx);
}

/** Confirmed bookings that overlap `from`..`to` (with the buffer), for the free slots. */
async function busyBetween(db: Db, from: number, to: number, bufferMinutes: number) {
  const margin = (bufferMinutes + 24 * 60) * 60_000;
  return db
    .selectFrom("bookings")
    .select(["start_at as start", "end_at as end"])
    .where("status", "=", "confirmed")
    .where("start_at", ">=", new Date(from - margin).toISOString())
    .where("start_at", "<", new Date(to + margin).toISOString())
    .orderBy("start_at")
    .limit(5000)
    .execute();
}

/**
 * A standing booking, other than `exceptId`, that `slot` would overlap or
 * come within the buffer of: the slot is not free (the rule freeSlots
 * applies), though no booking starts at it. Ranges that touch offer slots
 * that close, and a booking made on another grid (the owner changed the call
 * length since) can be anywhere. One that starts at the slot is left to the
 * unique `slot` column.
 */
async function nearbyBooking(trx: Db, slot: Slot, bufferMinutes: number, exceptId?: string): Promise<boolean> {
  const bufferMs = bufferMinutes * 60_000;
  let query = trx
    .selectFrom("bookings")
    .select("id")
    .where("status", "=", "confirmed")
    .where("start_at", "<", new Date(Date.parse(slot.end) + bufferMs).toISOString())
    .where("end_at", ">", new Date(Date.parse(slot.start) - bufferMs).toISOString())
    .where("start_at", "!=", slot.start);
  if (exceptId) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The free slots of `from`..`to` (dates in the owner's zone, inclusive). */
export async function freeSlots(
  db: Db,
  availability: Availability,
  range: { from: string; to: string },
  now: Date,
): Promise<Slot[]> {
  if (!availability.enabled) return [];
  const fromMs = startOfDay(range.from, availability.timeZone);
  const toMs = startOfDay(addDays(range.to, 1), availability.timeZone);
  const busy = await busyBetween(db, fromMs, toMs, availability.bufferMinutes);
  return computeSlots(availability, range, now, busy);
}

/** The e-mails a change queues: to the visitor and to the owner, each a job keyed by booking, mail and sequence. */
async function queueMails(trx: Db, payloads: BookingMailPayload[]): Promise<void> {
  if (getMailer() === null) return;
  for (const payload of payloads) {
    await enqueue(trx, bookingMailJob, payload, {
      idempotencyKey: `booking.mail:${payload.bookingId}:${payload.mail}:${payload.to}:${payload.sequence}`,
    });
  }
}

async function queueReminders(trx: Db, bookingId: string, sequence: number, start: string, now: number) {
  if (getMailer() !== null) await queueRemindersAnyway(trx, bookingId, sequence, start, now);
}

/** The reminders' jobs, whatever this process's mail server (a restore's process has none; the site's has). */
async function queueRemindersAnyway(trx: Db, bookingId: string, sequence: number, start: string, now: number) {
  const runAt = Date.parse(start) - REMINDER_BEFORE_MS;
  if (runAt < now + REMINDER_MIN_LEAD_MS) return;
  for (const to of ["visitor", "owner"] as const) {
    await enqueue(
      trx,
      bookingMailJob,
      { bookingId, mail: "reminder", to, sequence },
      { runAt: new Date(runAt), idempotencyKey: `booking.mail:${bookingId}:reminder:${to}:${sequence}` },
    );
  }
}

/** Books `request.start` for the visitor: 201's booking, else a BookingError (400 not offered, 409 taken or too many). */
export async function createBooking(
  db: Db,
  availability: Availability,
  request: BookingRequest,
  origin: LeadOrigin,
  now = new Date(),
): Promise<Booking> {
  if (!availability.enabled) throw new BookingError(400, bookingErrors.closed);
  const slot = offeredSlot(availability, request.start, now);
  if (!slot) throw new BookingError(400, bookingErrors.notOffered);
  const id = randomUUID();
  const mailbox = mailboxOf(request.email);
  try {
    return await db.transaction().execute(async (trx) => {
      await lockBookings(trx);
      const open = await trx
        .selectFrom("bookings")
        .select((eb) => eb.fn.countAll<string | number>().as("count"))
        .where("mailbox", "=", mailbox)
        .where("status", "=", "confirmed")
        .where("start_at", ">", now.toISOString())
        .executeTakeFirstOrThrow();
      if (Number(open.count) >= BOOKING_LIMITS.openPerEmail)
        throw new BookingError(409, bookingErrors.tooMany(BOOKING_LIMITS.openPerEmail), "email");
      // Near a standing call: not a race for this slot, so not given back.
      if (await nearbyBooking(trx, slot, availability.bufferMinutes)) throw new BookingError(409, bookingErrors.taken);
      await trx
        .insertInto("bookings")
        .values({
          id,
          start_at: slot.start,
          end_at: slot.end,
          slot: slot.start,
          status: "confirmed",
          name: request.name,
          email: request.email,
          mailbox,
          phone: request.phone,
          message: request.message,
          time_zone: request.timeZone,
          uid: `booking-${id}`,
          sequence: 0,
          message_id: null,
          created_at: now.toISOString(),
          cancelled_at: null,
        })
        .execute();
      const messageId = await storeBookingLead(trx, {
        name: request.name,
        email: request.email,
        phone: request.phone,
        message: request.message || bookingMail.leadWithoutNote,
        call: slot,
        origin,
      });
      await trx.updateTable("bookings").set({ message_id: messageId }).where("id", "=", id).execute();
      await queueMails(trx, [
        { bookingId: id, mail: "invite", to: "visitor", sequence: 0 },
        { bookingId: id, mail: "invite", to: "owner", sequence: 0 },
      ]);
      await queueReminders(trx, id, 0, slot.start, now.getTime());
      await emit(trx, "booking.created", {
        id,
        start: slot.start,
        end: slot.end,
        name: request.name,
        email: request.email,
        messageId,
      });
      return {
        id,
        start: slot.start,
        end: slot.end,
        status: "confirmed",
        name: request.name,
        timeZone: request.timeZone,
        messageId,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slotTaken();
    throw error;
  }
}

/**
 * Cancels a standing booking: its slot is free again, the visitor and the
 * owner get a CANCEL. Answers the booking as cancelled, and whether this
 * call cancelled it: false when it already was, or when a request at the
 * same moment did it first (its caller records nothing more).
 */
export async function cancelBooking(db: Db, booking: Booking): Promise<{ booking: Booking; changed: boolean }> {
  if (booking.status === "cancelled") return { booking, changed: false };
  return db.transaction().execute(async (trx) => {
    await lockBookings(trx);
    const now = new Date().toISOString();
    const updated = await trx
      .updateTable("bookings")
      .set((eb) => ({ status: "cancelled", slot: null, cancelled_at: now, sequence: eb("sequence", "+", 1) }))
      .where("id", "=", booking.id)
      .where("status", "=", "confirmed")
      .returning(["sequence", "message_id", "email", "name", "start_at", "end_at"])
      .executeTakeFirst();
    // Cancelled meanwhile by another request: nothing more to do.
    if (!updated) return { booking: { ...booking, status: "cancelled" as const }, changed: false };
    if (updated.message_id)
      await setLeadCall(trx, updated.message_id, {
        start: updated.start_at,
        end: updated.end_at,
        status: "cancelled",
      });
    const sequence = Number(updated.sequence);
    await queueMails(trx, [
      { bookingId: booking.id, mail: "cancel", to: "visitor", sequence },
      { bookingId: booking.id, mail: "cancel", to: "owner", sequence },
    ]);
    await emit(trx, "booking.cancelled", {
      id: booking.id,
      start: updated.start_at,
      end: updated.end_at,
      name: updated.name,
      email: updated.email,
      messageId: updated.message_id,
    });
    return { booking: { ...booking, status: "cancelled" as const }, changed: true };
  });
}

/** Moves a standing booking to another offered slot: the same UID, SEQUENCE one higher, a new reminder. */
export async function rescheduleBooking(
  db: Db,
  availability: Availability,
  booking: Booking,
  start: string,
  now = new Date(),
): Promise<Booking> {
  if (booking.status !== "confirmed") throw new BookingError(409, bookingErrors.cancelled);
  const slot = offeredSlot(availability, start, now);
  if (!slot) throw new BookingError(400, bookingErrors.notOffered);
  if (slot.start === booking.start) return booking;
  try {
    return await db.transaction().execute(async (trx) => {
      await lockBookings(trx);
      const current = await trx
        .selectFrom("bookings")
        .select(["status", "sequence"])
        .where("id", "=", booking.id)
        .executeTakeFirst();
      if (current?.status !== "confirmed") throw new BookingError(409, bookingErrors.cancelled);
      if (Number(current.sequence) >= MAX_CHANGES) throw new BookingError(409, bookingErrors.tooManyChanges);
      if (await nearbyBooking(trx, slot, availability.bufferMinutes, booking.id))
        throw new BookingError(409, bookingErrors.taken);
      const updated = await trx
        .updateTable("bookings")
        .set((eb) => ({ start_at: slot.start, end_at: slot.end, slot: slot.start, sequence: eb("sequence", "+", 1) }))
        .where("id", "=", booking.id)
        .where("status", "=", "confirmed")
        .returning(["sequence", "message_id"])
        .executeTakeFirst();
      if (!updated) throw new BookingError(409, bookingErrors.cancelled);
      if (updated.message_id) await setLeadCall(trx, updated.message_id, { ...slot, status: "booked" });
      const sequence = Number(updated.sequence);
      await queueMails(trx, [
        { bookingId: booking.id, mail: "update", to: "visitor", sequence },
        { bookingId: booking.id, mail: "update", to: "owner", sequence },
      ]);
      await queueReminders(trx, booking.id, sequence, slot.start, now.getTime());
      return { ...booking, start: slot.start, end: slot.end };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slotTaken();
    throw error;
  }
}

/** Upcoming standing bookings, soonest first, for the owner's Booking screen (paged). */
export async function listUpcomingBookings(db: Db, { limit, offset }: { limit: number; offset: number }) {
  const now = new Date(Date.now() - 60 * 60_000).toISOString();
  const base = db.selectFrom("bookings").where("status", "=", "confirmed").where("end_at", ">", now);
  const [rows, total] = await Promise.all([
    base
      .select(["id", "start_at", "end_at", "name", "email", "phone", "message_id"])
      .orderBy("start_at")
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total.count),
    bookings: rows.map((row) => ({
      id: row.id,
      start: row.start_at,
      end: row.end_at,
      name: row.name,
      email: row.email,
      phone: row.phone,
      messageId: row.message_id,
    })),
  };
}

/**
 * Keeps a booking 30 days past its call or its cancellation (the lead in the
 * inbox keeps the call's time): the table holds no visitor's details longer
 * than it needs, and a stranger's book-and-cancel cannot grow it.
 */
export async function pruneBookings(db: Db, now = Date.now()): Promise<number> {
  const before = new Date(now - 30 * 24 * 60 * 60_000).toISOString();
  const result = await db
    .deleteFrom("bookings")
    .where((eb) =>
      eb.or([eb.and([eb("status", "=", "cancelled"), eb("cancelled_at", "<", before)]), eb("end_at", "<", before)]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * After a restore (jobs are not in a backup): each standing call still more
 * than a day and two hours away gets its reminders queued again, keyed as
 * before, so a site restored twice still sends one.
 */
export async function queueRestoredReminders(trx: Db, now = Date.now()): Promise<void> {
  const rows = await trx
    .selectFrom("bookings")
    .select(["id", "start_at", "sequence"])
    .where("status", "=", "confirmed")
    .where("start_at", ">", new Date(now + REMINDER_BEFORE_MS + REMINDER_MIN_LEAD_MS).toISOString())
    .limit(5000)
    .execute();
  for (const row of rows) await queueRemindersAnyway(trx, row.id, Number(row.sequence), row.start_at, now);
}
