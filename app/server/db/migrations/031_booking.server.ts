import { type Kysely } from "kysely";

/**
 * Booking a call (issue 45, ADR 071).
 *
 * `booking_settings`: one row (id 1), the owner's availability: on or off,
 * the IANA time zone the hours are in, slot length, buffer between calls,
 * minimum notice, how far ahead, the weekly hours and the dates off (both
 * JSON text). The row is made here with the defaults: calls on weekdays,
 * 9:00 to 12:00 and 13:00 to 17:00 Pacific time, on for a new site (no
 * administrator yet) and off for an existing one.
 *
 * `bookings`: each call a visitor booked. `slot` holds the start while the
 * booking stands and NULL once cancelled; its unique index is what lets
 * exactly one of any number of parallel bookings of a slot in. The cancel
 * link holds an HMAC of the booking's id under the site's key, so nothing
 * here opens it. `uid` and `sequence` are the
 * invitation's iCalendar UID and SEQUENCE. `message_id` is the lead in the
 * inbox; deleting the lead deletes the booking (the visitor's details go
 * with it). `mailbox` is the e-mail as one person's mailbox (lower case, no
 * +tag), which the limit on open bookings per address counts.
 *
 * `contact_messages` gains the call a booking's lead is about: its start,
 * end and whether it still stands.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("booking_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("time_zone", "varchar(64)", (c) => c.notNull())
    .addColumn("slot_minutes", "integer", (c) => c.notNull())
    .addColumn("buffer_minutes", "integer", (c) => c.notNull())
    .addColumn("min_notice_hours", "integer", (c) => c.notNull())
    .addColumn("horizon_days", "integer", (c) => c.notNull())
    .addColumn("weekly", "text", (c) => c.notNull())
    .addColumn("days_off", "text", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();
  const existingSite = await db.selectFrom("admin_users").select("id").limit(1).executeTakeFirst();
  const weekly = [1, 2, 3, 4, 5].flatMap((day) => [
    { day, start: "09:00", end: "12:00" },
    { day, start: "13:00", end: "17:00" },
  ]);
  await db
    .insertInto("booking_settings")
    .values({
      id: 1,
      // On for a new site; an existing one starts off, since its owner has not chosen hours yet.
      enabled: existingSite ? 0 : 1,
      time_zone: "America/Los_Angeles",
      slot_minutes: 30,
      buffer_minutes: 15,
      min_notice_hours: 12,
      horizon_days: 30,
      weekly: JSON.stringify(weekly),
      days_off: "[]",
      updated_at: new Date().toISOString(),
    })
    .execute();

  await db.schema
    .createTable("bookings")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("start_at", "varchar(30)", (c) => c.notNull())
    .addColumn("end_at", "varchar(30)", (c) => c.notNull())
    .addColumn("slot", "varchar(30)")
    .addColumn("status", "varchar(12)", (c) => c.notNull())
    .addColumn("name", "varchar(200)", (c) => c.notNull())
    .addColumn("email", "varchar(320)", (c) => c.notNull())
    .addColumn("mailbox", "varchar(320)", (c) => c.notNull())
    .addColumn("phone", "varchar(50)")
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("time_zone", "varchar(64)")
    .addColumn("uid", "varchar(200)", (c) => c.notNull())
    .addColumn("sequence", "integer", (c) => c.notNull())
    .addColumn("message_id", "varchar(36)", (c) => c.references("contact_messages.id").onDelete("cascade"))
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("cancelled_at", "varchar(30)")
    .execute();
  await db.schema.createIndex("bookings_slot_idx").on("bookings").column("slot").unique().execute();
  await db.schema.createIndex("bookings_start_idx").on("bookings").columns(["status", "start_at"]).execute();
  await db.schema.createIndex("bookings_mailbox_idx").on("bookings").columns(["mailbox", "status"]).execute();

  for (const [column, type] of [
    ["call_start", "varchar(30)"],
    ["call_end", "varchar(30)"],
    ["call_status", "varchar(12)"],
  ] as const) {
    await db.schema.alterTable("contact_messages").addColumn(column, type).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["call_status", "call_end", "call_start"])
    await db.schema.alterTable("contact_messages").dropColumn(column).execute();
  await db.schema.dropTable("bookings").execute();
  await db.schema.dropTable("booking_settings").execute();
}
