import { randomUUID } from "node:crypto";
import { leadMail } from "~/content/leads";
import { LEAD_LIMITS } from "~/lib/leads";
import type { Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import { defineJob, enqueue } from "../jobs/index.server";
import { getMailer, mailId } from "../mail/index.server";
import { getLogger } from "../platform/logger.server";
import { readSiteSettings } from "../settings/index.server";
import { toReply, type Reply } from "./message-row.server";

/**
 * The owner's replies to a message (ADR 070). A reply is a row and a
 * `contact.reply` job made in one transaction, so it is sent exactly when
 * it was stored; the queue retries it while the mail server is down. It
 * goes to the sender from the contact e-mail, as plain text with the
 * message quoted below, with In-Reply-To and References naming the
 * message's notice, so it threads. A client's Idempotency-Key makes one
 * reply per message however many times it is sent, in parallel too (a
 * unique index). Replying moves a `new` lead to `contacted`.
 *
 * Exactly once in effect: a run that finds its reply sent does nothing. A
 * process killed after the mail server took the mail and before the row
 * said so sends it again on the next run, with the same Message-ID, which
 * mail clients show once.
 */

export class ReplyError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** A reply's text: trimmed, not empty, bounded, storable. */
export function parseReplyBody(value: unknown): string {
  if (typeof value !== "string") throw new ReplyError(400, "Send a JSON body with body: the reply's text");
  if (value.length > LEAD_LIMITS.reply)
    throw new ReplyError(400, `body is too long (${LEAD_LIMITS.reply} characters at most)`);
  if (value.includes("\0")) throw new ReplyError(400, "body contains a NUL character");
  const body = value.trim();
  if (!body) throw new ReplyError(400, "body is required: the reply's text");
  return body;
}

/** Why replies cannot be sent now, or null: a mail server and a contact e-mail are needed. */
export async function replyBlocker(db: Db): Promise<string | null> {
  if (getMailer() === null) return "Replies need a mail server: SMTP_URL is not set.";
  if (!(await readSiteSettings(db)).contactEmail)
    return "Replies are sent from the contact e-mail: set one in Admin > Settings.";
  return null;
}

/** Stores a reply and queues its mail; with an idempotency key already used, answers that reply. */
export async function addReply(
  db: Db,
  messageId: string,
  body: string,
  idempotencyKey?: string,
): Promise<{ reply: Reply; created: boolean }> {
  if (!isRecordId(messageId)) throw new ReplyError(404, "Message not found");
  if (
    idempotencyKey !== undefined &&
    (idempotencyKey.length === 0 || idempotencyKey.length > LEAD_LIMITS.idempotencyKey)
  )
    throw new ReplyError(400, `Idempotency-Key must be 1 to ${LEAD_LIMITS.idempotencyKey} characters`);
  if (idempotencyKey?.includes("\0")) throw new ReplyError(400, "Idempotency-Key contains a NUL character");
  const blocker = await replyBlocker(db);
  if (blocker) throw new ReplyError(409, blocker);
  return db.transaction().execute(async (trx) => {
    const message = await trx
      .selectFrom("contact_messages")
      .select("id")
      .where("id", "=", messageId)
      .executeTakeFirst();
    if (!message) throw new ReplyError(404, "Message not found");
    const id = randomUUID();
    const now = new Date().toISOString();
    const inserted = await trx
      .insertInto("message_replies")
      .values({
        id,
        message_id: messageId,
        body,
        status: "pending",
        attempts: 0,
        last_error: null,
        idempotency_key: idempotencyKey ?? null,
        created_at: now,
        sent_at: null,
      })
      .onConflict((oc) => oc.columns(["message_id", "idempotency_key"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      const existing = await trx
        .selectFrom("message_replies")
        .selectAll()
        .where("message_id", "=", messageId)
        .where("idempotency_key", "=", idempotencyKey!)
        .executeTakeFirstOrThrow();
      return { reply: toReply(existing), created: false };
    }
    const count = await trx
      .selectFrom("message_replies")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where("message_id", "=", messageId)
      .executeTakeFirstOrThrow();
    if (Number(count.count) > LEAD_LIMITS.repliesPerMessage)
      throw new ReplyError(409, `A message takes at most ${LEAD_LIMITS.repliesPerMessage} replies`);
    await enqueue(trx, contactReply, { replyId: id }, { idempotencyKey: `contact.reply:${id}` });
    // Decided on the row as it is now: a status another request changed meanwhile stays.
    await trx
      .updateTable("contact_messages")
      .set({ status: "contacted" })
      .where("id", "=", messageId)
      .where("status", "=", "new")
      .execute();
    await trx
      .updateTable("contact_messages")
      .set((eb) => ({ read_at: eb.fn.coalesce("read_at", eb.val(now)) }))
      .where("id", "=", messageId)
      .execute();
    const row = await trx.selectFrom("message_replies").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    return { reply: toReply(row), created: true };
  });
}

/** The reply's text with the message quoted below it, as mail clients quote. */
function replyText(body: string, message: { name: string; message: string; created_at: string }): string {
  const date = new Date(message.created_at).toUTCString();
  const quoted = message.message
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");
  return `${body}\n\n${leadMail.quoteHeader(message.name, date)}\n${quoted}\n`;
}

const contactReply = defineJob<{ replyId: string }>(
  "contact.reply",
  async ({ replyId }, { db, attempt, maxAttempts }) => {
    const reply = await db.selectFrom("message_replies").selectAll().where("id", "=", replyId).executeTakeFirst();
    if (!reply || reply.status === "sent") return;
    const message = await db
      .selectFrom("contact_messages")
      .select(["id", "name", "email", "message", "created_at", "mail_id"])
      .where("id", "=", reply.message_id)
      .executeTakeFirst();
    if (!message) return;
    try {
      const mailer = getMailer();
      if (!mailer) throw new Error("SMTP_URL is not set");
      const settings = await readSiteSettings(db);
      if (!settings.contactEmail) throw new Error("No contact e-mail to send from: set one in Admin > Settings");
      await mailer.send({
        from: { name: settings.companyName, address: settings.contactEmail },
        to: message.email,
        subject: `Re: ${leadMail.subject(settings.companyName)}`,
        text: replyText(reply.body, message),
        messageId: mailId(`reply.${reply.id}`),
        inReplyTo: message.mail_id ?? undefined,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await db
        .updateTable("message_replies")
        .set({
          status: attempt >= maxAttempts ? "failed" : "pending",
          attempts: attempt,
          last_error: reason.slice(0, 300),
        })
        .where("id", "=", reply.id)
        .execute();
      getLogger().warn({ replyId: reply.id, attempts: attempt, err: reason }, "reply not sent");
      throw error;
    }
    await db
      .updateTable("message_replies")
      .set({ status: "sent", attempts: attempt, last_error: null, sent_at: new Date().toISOString() })
      .where("id", "=", reply.id)
      .execute();
    getLogger().info({ replyId: reply.id, attempts: attempt }, "reply sent");
  },
  {
    maxAttempts: 8,
    retryDelaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 3 * 60 * 60_000],
    timeoutMs: 60_000,
  },
);
