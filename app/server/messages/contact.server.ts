import { randomUUID } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import { sql, type ExpressionBuilder, type Selectable, type SqlBool, type Expression } from "kysely";
import { preferredContactOptions, serviceOptions } from "~/content/contact";
import type { ContactInput } from "~/lib/contact-rules";
import type { Connection, Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import type { ContactMessagesTable, Database } from "../db/schema.server";
import type { MessageFilter, MessageListQuery } from "./list-query.server";
import { getLogger } from "../platform/logger.server";
import { getMailer, noticeAddresses } from "../mail/index.server";
import { defineJob, emit, enqueue } from "../jobs/index.server";
import { readSiteSettings } from "../settings/index.server";
import { createThrottle, type Throttle } from "../platform/throttle.server";
import { throttleKeyMaterial } from "../identity/index.server";

/** Per client address: this many accepted messages per hour (docs/product/contract.md#contact-messages). */
const CONTACT_THROTTLE = { points: 5, durationSeconds: 60 * 60 };
export const CONTACT_THROTTLED_MESSAGE = "Error: Too many messages from your address. Please try again later.";

export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  preferredContact: string;
  service: string;
  message: string;
  createdAt: string;
  read: boolean;
  readAt: string | null;
  notice: { status: ContactMessagesTable["notice_status"]; attempts: number; error: string | null };
}

type Row = Selectable<ContactMessagesTable>;

function toMessage(row: Row): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    preferredContact: row.preferred_contact,
    service: row.service,
    message: row.message,
    createdAt: row.created_at,
    read: row.read_at !== null,
    readAt: row.read_at,
    notice: { status: row.notice_status, attempts: Number(row.notice_attempts), error: row.notice_error },
  };
}

let throttle: Throttle | undefined;
/** Built once at start (the inbox's init), not on the first message. */
export function initContactThrottle(connection: Connection): void {
  throttle = createThrottle(connection, { name: "contact", ...CONTACT_THROTTLE, keyMaterial: throttleKeyMaterial });
}
export function contactThrottle(): Throttle {
  if (!throttle) throw new Error("the inbox's init() was not called at start (server/startup.ts)");
  return throttle;
}

/**
 * Stores the message and, in the same transaction, its e-mail notice's job
 * (when SMTP is configured) and the `contact.received` event (ADR 067): both
 * exist exactly when the message does.
 */
export async function storeContactMessage(
  db: Db,
  input: ContactInput,
  { notify }: { notify: boolean },
): Promise<ContactMessage> {
  const now = new Date().toISOString();
  const row: Row = {
    id: randomUUID(),
    name: input.name,
    email: input.email,
    phone: input.phone,
    preferred_contact: input.preferredContact,
    service: input.service,
    message: input.message,
    created_at: now,
    read_at: null,
    notice_status: notify ? "pending" : "off",
    notice_attempts: 0,
    notice_next_at: notify ? now : null,
    notice_error: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("contact_messages").values(row).execute();
    if (notify)
      await enqueue(trx, contactNotice, { messageId: row.id }, { idempotencyKey: `contact.notice:${row.id}` });
    await emit(trx, "contact.received", { id: row.id, name: row.name, email: row.email });
  });
  return toMessage(row);
}

interface MessageListPage {
  messages: ContactMessage[];
  /** Messages on every page. */
  total: number;
}

type MessagesExpression = ExpressionBuilder<Database, "contact_messages">;

/** `%`, `_` and `\` in `text` taken as themselves inside a LIKE pattern with escape '\'. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * The inbox's filter as one condition (ADR 035): read state, and name or
 * e-mail contains `q` ignoring case, spelled the same on both backends
 * (`lower()` on both sides, an explicit escape character), as the posts'
 * title filter (ADR 026).
 */
function matching({ status, q }: MessageFilter) {
  return (eb: MessagesExpression): Expression<SqlBool> => {
    const conditions: Array<Expression<SqlBool>> = [];
    if (status === "unread") conditions.push(eb("read_at", "is", null));
    if (status === "read") conditions.push(eb("read_at", "is not", null));
    if (q) {
      const pattern = containsPattern(q);
      conditions.push(
        eb.or([
          sql<SqlBool>`lower(${eb.ref("name")}) like lower(${pattern}) escape '\\'`,
          sql<SqlBool>`lower(${eb.ref("email")}) like lower(${pattern}) escape '\\'`,
        ]),
      );
    }
    return eb.and(conditions);
  };
}

/** One page of the inbox, newest first, and the number of messages matching its filter. ADRs 026, 035. */
export async function listContactMessages(
  db: Db,
  { limit, offset, status = "all", q }: Partial<MessageFilter> & Pick<MessageListQuery, "limit" | "offset">,
): Promise<MessageListPage> {
  const filter = matching({ status, q });
  const [rows, counted] = await Promise.all([
    db
      .selectFrom("contact_messages")
      .selectAll()
      .where(filter)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom("contact_messages")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where(filter)
      .executeTakeFirstOrThrow(),
  ]);
  return { messages: rows.map(toMessage), total: Number(counted.count) };
}

/** Rows per query of the CSV export: a page's rows are all it holds at a time. */
const EXPORT_PAGE_SIZE = 200;

/**
 * Every message matching `filter`, newest first, read from the database a
 * page at a time by keyset (created_at, id): the page after a row starts
 * strictly after it, so a message arriving or going meanwhile neither
 * repeats nor shifts a row (ADR 035). The next page is read only when the
 * consumer asks for it.
 */
export async function* messagesForExport(
  db: Db,
  filter: MessageFilter,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ContactMessage> {
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const cursor = after;
    const rows = await db
      .selectFrom("contact_messages")
      .selectAll()
      .where(matching(filter))
      .$if(cursor !== undefined, (query) =>
        query.where((eb) =>
          eb.or([
            eb("created_at", "<", cursor!.createdAt),
            eb.and([eb("created_at", "=", cursor!.createdAt), eb("id", "<", cursor!.id)]),
          ]),
        ),
      )
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(pageSize)
      .execute();
    for (const row of rows) yield toMessage(row);
    if (rows.length < pageSize) return;
    // Let other requests in between pages: a client reading as fast as the
    // server writes never applies backpressure, and the whole export would
    // then run as one task (SQLite's queries are synchronous).
    await setImmediate();
    const last = rows.at(-1)!;
    after = { createdAt: last.created_at, id: last.id };
  }
}

/**
 * How many messages each of `emails` has sent, keyed by the address in
 * lower case (the inbox's "delete all from this sender" says how many will go).
 */
export async function countMessagesBySender(db: Db, emails: string[]): Promise<Map<string, number>> {
  const keys = [...new Set(emails.map((email) => email.toLowerCase()))];
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom("contact_messages")
    .select([sql<string>`lower(email)`.as("sender"), (eb) => eb.fn.countAll<string | number>().as("count")])
    .where(sql<string>`lower(email)`, "in", keys)
    .groupBy(sql`lower(email)`)
    .execute();
  return new Map(rows.map((row) => [row.sender, Number(row.count)]));
}

/**
 * Deletes every message from `email`, ignoring case (a person's request to
 * be forgotten, ADR 035); answers how many went.
 */
export async function deleteMessagesFrom(db: Db, email: string): Promise<number> {
  const result = await db
    .deleteFrom("contact_messages")
    .where(sql<string>`lower(email)`, "=", sql<string>`lower(${email})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Messages not yet marked read, on every page (a partial index keeps this cheap: migration 007). */
export async function countUnreadMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom("contact_messages")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks a message read or unread; undefined when there is no such message. */
export async function setMessageRead(db: Db, id: string, read: boolean): Promise<ContactMessage | undefined> {
  if (!isRecordId(id)) return undefined;
  await db
    .updateTable("contact_messages")
    .set({ read_at: read ? new Date().toISOString() : null })
    .where("id", "=", id)
    .execute();
  const row = await db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toMessage(row) : undefined;
}

export async function deleteMessage(db: Db, id: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  const result = await db.deleteFrom("contact_messages").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ------------------------------------------------------------ e-mail notices

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
const contactNotice = defineJob<{ messageId: string }>(
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
