import { bookingMail } from "~/content/booking-mail";
import { formatCallTime } from "~/lib/call-time";
import type { Connection } from "../db/db.server";
import { throttleKeyMaterial } from "../identity/index.server";
import { defineJob } from "../jobs/index.server";
import { getMailer, mailId, noticeAddresses } from "../mail/index.server";
import { getConfig } from "../platform/config.server";
import { getLogger } from "../platform/logger.server";
import { createThrottle, reserveAll, type Throttle } from "../platform/throttle.server";
import { readSiteSettings } from "../settings/index.server";
import { readAvailability } from "./availability.server";
import { bookingToken } from "./link-key.server";
import { buildInvite } from "./invite.server";

/**
 * A booking's e-mails (ADR 071), one `booking.mail` job each: the
 * invitation (a new call), the update (a moved one), the cancellation and
 * the reminder a day before, to the visitor and to the owner, each with the
 * booking's invitation as a text/calendar part. A job is keyed by booking,
 * mail, recipient and the booking's SEQUENCE, so each is queued once; it
 * sends nothing when the booking has changed since (a later SEQUENCE, a
 * cancelled call's reminder), and a retry sends the same Message-ID.
 *
 * A booking names an e-mail address nobody checked, so the visitor's
 * invitation is throttled per mailbox (3 a day) and for the whole site (200
 * an hour), reserved on the job's first run: someone booking in a
 * stranger's name cannot fill the stranger's inbox.
 */

export interface BookingMailPayload {
  bookingId: string;
  mail: "invite" | "update" | "cancel" | "reminder";
  to: "visitor" | "owner";
  sequence: number;
}

let throttles: { mailbox: Throttle; site: Throttle } | undefined;
export function initMailThrottles(connection: Connection): void {
  throttles = {
    mailbox: createThrottle(connection, {
      name: "booking-invite",
      points: 3,
      durationSeconds: 24 * 60 * 60,
      keyMaterial: throttleKeyMaterial,
    }),
    site: createThrottle(connection, {
      name: "booking-invite-site",
      points: 200,
      durationSeconds: 60 * 60,
      keyMaterial: throttleKeyMaterial,
    }),
  };
}

const SUBJECTS = {
  visitor: {
    invite: bookingMail.inviteSubject,
    update: bookingMail.updateSubject,
    cancel: bookingMail.cancelSubject,
    reminder: bookingMail.reminderSubject,
  },
  owner: {
    invite: bookingMail.ownerSubject,
    update: bookingMail.ownerUpdateSubject,
    cancel: bookingMail.ownerCancelSubject,
    reminder: bookingMail.ownerReminderSubject,
  },
} as const;

const VISITOR_TEXTS = {
  invite: bookingMail.visitorText,
  update: bookingMail.visitorUpdateText,
  cancel: bookingMail.visitorCancelText,
  reminder: bookingMail.visitorReminderText,
} as const;

export const bookingMailJob = defineJob<BookingMailPayload>(
  "booking.mail",
  async ({ bookingId, mail, to, sequence }, { db, attempt }) => {
    const row = await db.selectFrom("bookings").selectAll().where("id", "=", bookingId).executeTakeFirst();
    if (!row) return;
    const standing = row.status === "confirmed" && Number(row.sequence) === sequence;
    if (mail === "cancel" ? row.status !== "cancelled" : !standing) return;
    const mailer = getMailer();
    if (!mailer) return;
    const log = getLogger();
    if (to === "visitor" && mail === "invite" && attempt === 1 && throttles) {
      const allowed = await reserveAll([
        [throttles.mailbox, row.mailbox],
        [throttles.site, "site"],
      ]);
      if (!allowed.ok) {
        log.warn({ bookingId }, "booking invitation not sent: too many to this address");
        return;
      }
    }
    const settings = await readSiteSettings(db);
    const owner = noticeAddresses(settings);
    if (!owner) {
      log.warn({ bookingId, mail }, "booking e-mail not sent: no contact e-mail in Admin > Settings");
      return;
    }
    const ownerZone = (await readAvailability(db)).timeZone;
    const zone = to === "visitor" ? (row.time_zone ?? ownerZone) : ownerZone;
    const when = formatCallTime(row.start_at, zone);
    // An origin (config.server.ts): no trailing slash.
    const site = getConfig().siteUrl;
    const manageUrl = `${site}/book/manage/${await bookingToken(row.id)}`;
    const company = settings.companyName;
    const text =
      to === "visitor"
        ? VISITOR_TEXTS[mail](row.name, company, when, mail === "cancel" ? `${site}/book` : manageUrl)
        : bookingMail.ownerText(bookingMail.ownerHeadings[mail], row, when, `${site}/admin/messages/${row.message_id}`);
    const subject = to === "visitor" ? SUBJECTS.visitor[mail](company, when) : SUBJECTS.owner[mail](row.name, when);
    const calendar = buildInvite(
      {
        uid: row.uid,
        sequence: Number(row.sequence),
        start: row.start_at,
        end: row.end_at,
        name: row.name,
        email: row.email,
      },
      {
        method: mail === "cancel" ? "CANCEL" : "REQUEST",
        summary: to === "visitor" ? bookingMail.eventSummary(company) : bookingMail.ownerEventSummary(row.name),
        description: text,
        organizer: { name: company, email: owner.from.address },
        // The visitor's copy links to their page; the owner's to the Booking screen (a calendar is often shared).
        url: to === "visitor" ? manageUrl : `${site}/admin/booking`,
      },
    );
    await mailer.send({
      from: owner.from,
      to: to === "visitor" ? row.email : owner.to,
      replyTo: to === "visitor" ? owner.from.address : row.email,
      subject,
      text,
      messageId: mailId(`booking.${row.id}.${mail}.${to}.${sequence}`),
      autoReply: to === "visitor",
      calendar: { method: mail === "cancel" ? "CANCEL" : "REQUEST", content: calendar },
    });
  },
  { maxAttempts: 6, retryDelaysMs: [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000] },
);
