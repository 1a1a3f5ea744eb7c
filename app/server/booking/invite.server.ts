import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from "ical-generator";

/**
 * A booking's calendar invitation (ADR 071), built with ical-generator: one
 * VEVENT with the booking's UID, which never changes, and its SEQUENCE,
 * raised by each change, so a calendar updates or removes the event it has
 * rather than adding another. METHOD:REQUEST for a new or moved call,
 * METHOD:CANCEL (STATUS:CANCELLED) for a cancelled one. The visitor's and
 * the owner's copies are the same event.
 */

export interface InviteBooking {
  uid: string;
  sequence: number;
  start: string;
  end: string;
  name: string;
  email: string;
}

export interface InviteOptions {
  method: "REQUEST" | "CANCEL";
  summary: string;
  description: string;
  organizer: { name: string; email: string };
  /** The page the visitor manages the booking on. */
  url: string;
}

export function buildInvite(booking: InviteBooking, options: InviteOptions): string {
  const cancel = options.method === "CANCEL";
  const calendar = ical({
    prodId: { company: "ojai-tech-site", product: "booking", language: "EN" },
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  calendar.createEvent({
    id: booking.uid,
    sequence: booking.sequence,
    start: new Date(booking.start),
    end: new Date(booking.end),
    stamp: new Date(),
    summary: options.summary,
    description: options.description,
    url: options.url,
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: options.organizer,
    attendees: [
      {
        name: booking.name,
        email: booking.email,
        role: ICalAttendeeRole.REQ,
        status: cancel ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
      },
    ],
  });
  return calendar.toString();
}
