import { isTimeZone, parseAvailability } from "~/lib/booking";
import { isRecordId } from "../db/ids.server";
import { parseJsonList } from "./availability.server";

/**
 * What a restore checks of booking's rows (ADR 047: it trusts nothing it did
 * not write): the hours pass the same checks as a PUT; a booking has one of
 * the two statuses, real instants, a slot that is its start exactly while it
 * stands, a known zone or none.
 */

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isInstant = (value: unknown): value is string =>
  typeof value === "string" && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));

function isSettingsRow(row: Record<string, unknown>): boolean {
  if (row.id !== 1 || (row.enabled !== 0 && row.enabled !== 1)) return false;
  const parsed = parseAvailability(
    {
      enabled: row.enabled === 1,
      timeZone: row.time_zone,
      slotMinutes: row.slot_minutes,
      bufferMinutes: row.buffer_minutes,
      minNoticeHours: row.min_notice_hours,
      horizonDays: row.horizon_days,
      weekly: parseJsonList(row.weekly),
      daysOff: parseJsonList(row.days_off),
    },
    {
      enabled: false,
      timeZone: "UTC",
      slotMinutes: 30,
      bufferMinutes: 0,
      minNoticeHours: 0,
      horizonDays: 1,
      weekly: [],
      daysOff: [],
    },
  );
  return parsed.ok;
}

function isBooking(row: Record<string, unknown>): boolean {
  const { id, start_at: start, end_at: end, slot, status, sequence, time_zone: zone, message_id: messageId } = row;
  const standing = status === "confirmed";
  return (
    typeof id === "string" &&
    isRecordId(id) &&
    isInstant(start) &&
    isInstant(end) &&
    Date.parse(end) > Date.parse(start) &&
    (standing || status === "cancelled") &&
    (standing ? slot === start : slot === null) &&
    typeof sequence === "number" &&
    Number.isInteger(sequence) &&
    sequence >= 0 &&
    (zone === null || (typeof zone === "string" && isTimeZone(zone))) &&
    (messageId === null || (typeof messageId === "string" && isRecordId(messageId)))
  );
}

export function isBookingRow(table: "booking_settings" | "bookings", row: Record<string, unknown>): boolean {
  return table === "bookings" ? isBooking(row) : isSettingsRow(row);
}
