import { preferredContactOptions, serviceOptions } from "~/content/contact";
import { defineJob } from "../jobs/index.server";
import { getMailer, noticeAddresses } from "../mail/index.server";
import { getLogger } from "../platform/logger.server";
import { readSiteSettings } from "../settings/index.server";
import { toMessage, type ContactMessage } from "./message-row.server";

/**
 * The e-mail notice to the company of each new message (ADR 067), sent with
 * the message's Message-ID, which the owner's replies and the acknowledgement
 * thread under (ADR 070).
 */

const optionLabel = (options: ReadonlyArray<{ value: string; label: string }>, value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

function noticeText(
  message: Pick<ContactMessage, "name" | "email" | "phone" | "preferredContact" | "service" | "message" | "createdAt">,
) {
  return [
    `New message from the website contact form (${message.createdAt}).`,
    "",
    `Name: ${message.name}`,
    `Email: ${message.email}`,
    `Phone: ${message.phone ?? "-"}`,
    `Preferred Contact Method: ${optionLabel(preferredContactOptions, message.preferredContact)}`,
    `Service Interest: ${optionLabel(serviceOptions, message.service)}`,
    "",
    message.message,
  ].join("\n");
}

/**
 * The e-mail notice as a job (ADR 067): the queue retries it after 5 s, 30 s,
 * 2 min, 10 min and 1 h, then gives up. The message's notice columns say how
 * it went, as before the queue: pending (with the attempts so far and the
 * last error), sent, or failed after the last attempt.
 */
export const contactNotice = defineJob<{ messageId: string }>(
  "contact.notice",
  async ({ messageId }, { db, attempt, maxAttempts }) => {
    const row = await db.selectFrom("contact_messages").selectAll().where("id", "=", messageId).executeTakeFirst();
    // Deleted meanwhile, or already sent by an earlier run that ended before the queue heard.
    // A failed one runs again when the owner retries it (Admin > Activity).
    if (!row || row.notice_status === "sent" || row.notice_status === "off") return;
    const mailer = getMailer();
    const log = getLogger();
    try {
      if (!mailer) throw new Error("SMTP_URL is not set");
      const addresses = noticeAddresses(await readSiteSettings(db));
      if (!addresses) throw new Error("No address for contact notices: set one in Admin > Settings");
      await mailer.send({
        ...addresses,
        replyTo: row.email,
        subject: `New contact message from ${row.name}`,
        text: noticeText(toMessage(row)),
        messageId: row.mail_id ?? undefined,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const last = attempt >= maxAttempts;
      await db
        .updateTable("contact_messages")
        .set({
          notice_status: last ? "failed" : "pending",
          notice_attempts: attempt,
          notice_next_at: null,
          notice_error: reason.slice(0, 500),
        })
        .where("id", "=", row.id)
        .execute();
      if (last) log.error({ messageId: row.id, attempts: attempt, err: reason }, "contact notice failed; giving up");
      else log.warn({ messageId: row.id, attempts: attempt, err: reason }, "contact notice failed; will retry");
      throw error;
    }
    await db
      .updateTable("contact_messages")
      .set({ notice_status: "sent", notice_attempts: attempt, notice_next_at: null, notice_error: null })
      .where("id", "=", row.id)
      .execute();
    log.info({ messageId: row.id, attempts: attempt }, "contact notice sent");
  },
  { maxAttempts: 6, retryDelaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000], timeoutMs: 60_000 },
);
