import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "../db/db.server";
import { defineJob, enqueue, type JobContext } from "../jobs/index.server";
import { type BulkMail, BulkSendError, createBulkSender, mailId, noticeAddresses } from "../mail/index.server";
import { getConfig } from "../platform/config.server";
import { readSiteSettings } from "../settings/index.server";
import { subscriberLink } from "./links.server";
import type { PostMail } from "./post-mail.server";
import { finishMailing, mark, nextRecipients, noteDoubt, type Recipient } from "./recipients.server";
import { siteNow } from "../platform/clock.server";

/**
 * A mailing's sending (ADR 072): one `newsletter.batch` job per batch of
 * recipients, each queuing the next, paced to NEWSLETTER_RATE_PER_MINUTE.
 * Each recipient's send is recorded just before the mail server is told the
 * message is complete (the mail domain's held send), by an UPDATE only one
 * process can win, so a batch run again after a crash, or by a second
 * process after a lost lease, never sends anyone a second copy. A refused
 * address fails alone; a mail server that is down, refuses the sign-in or
 * answers 4xx fails the batch, which is retried with what is left; a post
 * unpublished or no longer to be e-mailed ends the mailing.
 */

/** The most recipients in one batch. */
const BATCH_MAX = 100;
/** A batch holds about this much sending at the configured rate, and stops after it whatever the mail server's pace. */
const BATCH_SECONDS = 5;
/** Put where each recipient's own unsubscribe address goes, in the mail rendered once per batch. */
const UNSUBSCRIBE_PLACEHOLDER = "https://unsubscribe.invalid/newsletter-recipient";

interface Sending {
  db: Db;
  mailingId: string;
  mail: PostMail;
  from: BulkMail["from"];
}

async function messageFor({ mailingId, mail, from }: Sending, recipient: Recipient): Promise<BulkMail> {
  const unsubscribeUrl = await subscriberLink("unsubscribe", recipient.subscriberId);
  const personal = (text: string) => text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl);
  return {
    from,
    to: recipient.email ?? "",
    subject: mail.subject,
    html: personal(mail.html),
    text: personal(mail.text),
    messageId: mailId(`newsletter.${mailingId}.${recipient.subscriberId}`),
    headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

async function sendTo(sending: Sending, recipient: Recipient, sender: ReturnType<typeof createBulkSender>) {
  const { db, mailingId } = sending;
  const id = recipient.subscriberId;
  // The record was refused (another run sent it, or the subscriber left): ours is dropped before its end.
  let notRecorded = false;
  try {
    await sender.send(await messageFor(sending, recipient), async () => {
      if (await mark(db, mailingId, id, "pending", "sent")) return;
      notRecorded = true;
      throw new Error("not recorded");
    });
  } catch (error) {
    if (notRecorded) return void (await mark(db, mailingId, id, "pending", "skipped"));
    if (!(error instanceof BulkSendError)) throw error;
    switch (error.outcome) {
      case "recipient":
        return void (await mark(db, mailingId, id, "pending", "failed", error.code));
      case "refused":
        return void (await mark(db, mailingId, id, "sent", "failed", error.code));
      case "unconfirmed":
        return noteDoubt(db, mailingId, id, `no answer after the end (${error.code})`);
      case "retry":
        // Nothing delivered for now: the record undone, and the batch tried again later.
        if (error.committed) await mark(db, mailingId, id, "sent", "pending");
        throw error;
    }
  }
}

const mailingOf = (db: Db, mailingId: string) =>
  db
    .selectFrom("newsletter_mailings as m")
    .innerJoin("posts as p", "p.id", "m.post_id")
    .select(["m.status", "p.title", "p.slug", "p.excerpt", "p.content", "p.publish_date", "p.author"])
    .select(["p.header_image", "p.header_image_alt", "p.published", "p.email_subscribers"])
    .where("m.id", "=", mailingId)
    .executeTakeFirst();

async function runBatch({ mailingId }: { mailingId: string }, { db, signal }: JobContext): Promise<void> {
  const mailing = await mailingOf(db, mailingId);
  if (!mailing || mailing.status !== "sending") return;
  // Unpublished, or no longer to be e-mailed, since: the owner stopped it.
  if (mailing.published !== 1 || mailing.email_subscribers !== 1) return finishMailing(db, mailingId, true);
  const config = getConfig();
  const settings = await readSiteSettings(db);
  const from = noticeAddresses(settings)?.from;
  // Left pending, the job failing: once the setting is made, Admin > Activity retries it.
  if (!config.smtp) throw new Error("newsletter mailing not sent: SMTP_URL is not set");
  if (!from) throw new Error("newsletter mailing not sent: no contact e-mail in Admin > Settings");
  const rate = config.newsletterRatePerMinute;
  const size = Math.min(BATCH_MAX, Math.max(1, Math.ceil((rate * BATCH_SECONDS) / 60)));
  const gapMs = 60_000 / rate;
  const recipients = await nextRecipients(db, mailingId, size);
  if (recipients.length === 0) return finishMailing(db, mailingId);
  // Loaded by the mailing, not at start: the mail's HTML tooling (rehype's
  // parser, html-to-text) is some 400 kB that only a sending process needs.
  const { renderPostMail } = await import("./post-mail.server");
  const mail = await renderPostMail({
    post: {
      title: mailing.title,
      slug: mailing.slug,
      excerpt: mailing.excerpt,
      body: mailing.content,
      publishDate: mailing.publish_date,
      author: mailing.author,
      headerImage: mailing.header_image,
      headerImageAlt: mailing.header_image_alt,
    },
    site: { name: settings.companyName, url: config.siteUrl },
    unsubscribeUrl: UNSUBSCRIBE_PLACEHOLDER,
  });
  const sender = createBulkSender(config.smtp.url);
  const started = performance.now();
  let nextAt = started;
  try {
    for (const recipient of recipients) {
      signal.throwIfAborted();
      // A slow mail server: the rest go in the next batch, well within this one's time-out.
      if (performance.now() - started > BATCH_SECONDS * 1000) break;
      if (!recipient.email || recipient.status !== "confirmed") {
        await mark(db, mailingId, recipient.subscriberId, "pending", "skipped");
        continue;
      }
      // No timer when there is nothing to wait: even a 0 ms one costs a turn of the loop's timers.
      const waitMs = nextAt - performance.now();
      if (waitMs >= 1) await sleep(waitMs, undefined, { signal });
      nextAt = performance.now() + gapMs;
      await sendTo({ db, mailingId, mail, from }, recipient, sender);
    }
  } finally {
    sender.close();
  }
  // A run past its time-out queues nothing: its retry will.
  signal.throwIfAborted();
  // Keyed by where this batch began, and paced like the sends within it.
  const first = recipients[0]?.subscriberId ?? "";
  await enqueue(
    db,
    batchJob,
    { mailingId },
    { idempotencyKey: `newsletter.batch:${mailingId}:after:${first}`, runAt: new Date(siteNow() + gapMs) },
  );
}

export const batchJob = defineJob<{ mailingId: string }>("newsletter.batch", runBatch, {
  maxAttempts: 12,
  retryDelaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000],
  // BATCH_SECONDS of sending and one last send's time-outs (5 s each step); the lease is 5 s more.
  timeoutMs: 30_000,
});
