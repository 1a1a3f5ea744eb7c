import { confirmMail } from "~/content/newsletter";
import { mailboxOf } from "~/lib/email";
import type { Connection } from "../db/db.server";
import { throttleKeyMaterial } from "../identity/index.server";
import { defineJob } from "../jobs/index.server";
import { getMailer, mailId, noticeAddresses } from "../mail/index.server";
import { getLogger } from "../platform/logger.server";
import { createThrottle, reserveAll, type Throttle } from "../platform/throttle.server";
import { readSiteSettings } from "../settings/index.server";
import { subscriberLink } from "./links.server";

/**
 * The confirmation e-mail of a sign-up (ADR 072), one `newsletter.confirm-mail`
 * job each, keyed by subscriber and the moment it was asked for: a retry
 * sends the same Message-ID, and a job for an older request, or for an
 * address confirmed or removed since, sends nothing.
 *
 * A sign-up names an address nobody checked, so besides the one e-mail a day
 * per address (the subscribers' own rule) the e-mails are throttled per
 * mailbox (3 a day: name+1@ and name+2@ reach one person) and for the whole
 * site (200 an hour), reserved on the job's first run. The owner's import
 * is not: those addresses were not typed by a stranger.
 */

let throttles: { mailbox: Throttle; site: Throttle } | undefined;
export function initConfirmThrottles(connection: Connection): void {
  throttles = {
    mailbox: createThrottle(connection, {
      name: "newsletter-confirm",
      points: 3,
      durationSeconds: 24 * 60 * 60,
      keyMaterial: throttleKeyMaterial,
    }),
    site: createThrottle(connection, {
      name: "newsletter-confirm-site",
      points: 200,
      durationSeconds: 60 * 60,
      keyMaterial: throttleKeyMaterial,
    }),
  };
}

export const confirmMailJob = defineJob<{ subscriberId: string; sentAt: string; imported?: boolean }>(
  "newsletter.confirm-mail",
  async ({ subscriberId, sentAt, imported }, { db, attempt }) => {
    const row = await db
      .selectFrom("subscribers")
      .select(["id", "email", "status", "confirm_sent_at"])
      .where("id", "=", subscriberId)
      .executeTakeFirst();
    if (!row || row.status !== "pending" || row.confirm_sent_at !== sentAt) return;
    const mailer = getMailer();
    if (!mailer) return;
    const log = getLogger();
    if (attempt === 1 && !imported && throttles) {
      const allowed = await reserveAll([
        [throttles.mailbox, mailboxOf(row.email)],
        [throttles.site, "site"],
      ]);
      if (!allowed.ok) {
        log.warn({ subscriberId }, "newsletter confirmation not sent: too many to this mailbox or site");
        // Not counted as this address's e-mail of the day: a sign-up after the flood gets one.
        await db
          .updateTable("subscribers")
          .set({ confirm_sent_at: null })
          .where("id", "=", subscriberId)
          .where("confirm_sent_at", "=", sentAt)
          .execute();
        return;
      }
    }
    const settings = await readSiteSettings(db);
    const from = noticeAddresses(settings)?.from;
    if (!from) {
      log.warn({ subscriberId }, "newsletter confirmation not sent: no contact e-mail in Admin > Settings");
      return;
    }
    const site = settings.companyName;
    await mailer.send({
      from,
      to: row.email,
      subject: confirmMail.subject(site),
      text: confirmMail.text(site, await subscriberLink("confirm", row.id)),
      messageId: mailId(`newsletter.confirm.${row.id}.${Date.parse(sentAt)}`),
      autoReply: true,
    });
  },
  { maxAttempts: 6, retryDelaysMs: [10_000, 60_000, 5 * 60_000, 30 * 60_000] },
);
