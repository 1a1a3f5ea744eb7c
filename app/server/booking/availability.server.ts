import type { Availability, WeeklyHours } from "~/lib/booking";
import { changingContent } from "../db/content-version.server";
import type { Db } from "../db/db.server";

/**
 * The owner's availability (ADR 071): one row of `booking_settings`, made by
 * its migration with the defaults, read for every slots query and booking.
 */

/** What a database without the row answers: the migration's defaults, off. */
const FALLBACK: Availability = {
  enabled: false,
  timeZone: "America/Los_Angeles",
  slotMinutes: 30,
  bufferMinutes: 15,
  minNoticeHours: 12,
  horizonDays: 30,
  weekly: [],
  daysOff: [],
};

/** A JSON list stored as text; anything else is an empty list. */
export function parseJsonList<T>(text: unknown): T[] {
  try {
    const value: unknown = typeof text === "string" ? JSON.parse(text) : undefined;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

export async function readAvailability(db: Db): Promise<Availability> {
  const row = await db.selectFrom("booking_settings").selectAll().where("id", "=", 1).executeTakeFirst();
  if (!row) return FALLBACK;
  return {
    enabled: Number(row.enabled) === 1,
    timeZone: row.time_zone,
    slotMinutes: Number(row.slot_minutes),
    bufferMinutes: Number(row.buffer_minutes),
    minNoticeHours: Number(row.min_notice_hours),
    horizonDays: Number(row.horizon_days),
    weekly: parseJsonList<WeeklyHours>(row.weekly),
    daysOff: parseJsonList<string>(row.days_off),
  };
}

/**
 * Saves a checked availability (parseAvailability) and answers it as stored.
 * It bumps the content version: cached public pages carry the link to /book
 * only while booking is on.
 */
export async function saveAvailability(db: Db, value: Availability): Promise<Availability> {
  const row = {
    enabled: value.enabled ? 1 : 0,
    time_zone: value.timeZone,
    slot_minutes: value.slotMinutes,
    buffer_minutes: value.bufferMinutes,
    min_notice_hours: value.minNoticeHours,
    horizon_days: value.horizonDays,
    weekly: JSON.stringify(value.weekly),
    days_off: JSON.stringify(value.daysOff),
    updated_at: new Date().toISOString(),
  };
  await changingContent(db, (trx) =>
    trx
      .insertInto("booking_settings")
      .values({ id: 1, ...row })
      .onConflict((oc) => oc.column("id").doUpdateSet(row))
      .execute(),
  );
  return readAvailability(db);
}
