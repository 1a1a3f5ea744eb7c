import { containsPattern } from "../db/like.server";
import { randomUUID } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import { sql, type ExpressionBuilder, type SqlBool, type Expression } from "kysely";
import type { ContactInput } from "~/lib/contact-rules";
import { SPAM_KEPT } from "~/lib/leads";
import type { LeadOrigin } from "../analytics/index.server";
import type { Connection, Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import type { Database } from "../db/schema.server";
import type { MessageFilter, MessageListQuery } from "./list-query.server";
import { mailId } from "../mail/index.server";
import { emit, enqueue } from "../jobs/index.server";
import { createThrottle, type Throttle } from "../platform/throttle.server";
import { throttleKeyMaterial } from "../identity/index.server";
import { contactNotice } from "./notice.server";
import { toMessage, type ContactMessage, type ReplyRow, type Row } from "./message-row.server";
import { acknowledgement } from "./acknowledgement.server";

/** Per client address: this many accepted messages per hour (docs/product/contract.md#contact-messages). */
const CONTACT_THROTTLE = { points: 5, durationSeconds: 60 * 60 };
export const CONTACT_THROTTLED_MESSAGE = "Error: Too many messages from your address. Please try again later.";

/** The replies of `ids`' messages, oldest first, by message. */
async function repliesOf(db: Db, ids: string[]): Promise<Map<string, ReplyRow[]>> {
  const byMessage = new Map<string, ReplyRow[]>();
  if (ids.length === 0) return byMessage;
  const rows = await db
    .selectFrom("message_replies")
    .selectAll()
    .where("message_id", "in", ids)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const list = byMessage.get(row.message_id);
    if (list) list.push(row);
    else byMessage.set(row.message_id, [row]);
  }
  return byMessage;
}

/** Rows as messages with their replies (one query for every row's replies). */
async function withReplies(db: Db, rows: Row[]): Promise<ContactMessage[]> {
  const replies = await repliesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toMessage(row, replies.get(row.id)));
}

/** One message with its replies, or undefined. */
export async function findMessage(db: Db, id: string): Promise<ContactMessage | undefined> {
  if (!isRecordId(id)) return undefined;
  const row = await db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? (await withReplies(db, [row]))[0] : undefined;
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

interface StoreOptions {
  /** Whether SMTP is configured: a notice job is queued for a message that is not spam. */
  notify: boolean;
  /** Whether the sender is sent an acknowledgement (the setting is on and its throttle let it through). */
  acknowledge: boolean;
  origin: LeadOrigin;
  /** Why the site judged it spam, if it did: kept apart, no notice, no event (ADR 070). */
  spamReason: string | null;
}

/**
 * Stores the message and, in the same transaction, its e-mail notice's job
 * (when SMTP is configured), its acknowledgement's job (when asked) and the
 * `contact.received` event (ADR 067): each exists exactly when the message
 * does. A message judged spam gets none of them, and past SPAM_KEPT spam
 * messages the oldest go.
 */
export async function storeContactMessage(
  db: Db,
  input: ContactInput,
  { notify, acknowledge, origin, spamReason }: StoreOptions,
): Promise<ContactMessage> {
  const now = new Date().toISOString();
  const spam = spamReason !== null;
  const id = randomUUID();
  const row: Row = {
    id,
    name: input.name,
    email: input.email,
    phone: input.phone,
    preferred_contact: input.preferredContact,
    service: input.service,
    message: input.message,
    created_at: now,
    read_at: null,
    notice_status: notify && !spam ? "pending" : "off",
    notice_attempts: 0,
    notice_next_at: notify && !spam ? now : null,
    notice_error: null,
    status: spam ? "spam" : "new",
    note: null,
    follow_up_at: null,
    source_page: origin.sourcePage,
    source: origin.source,
    campaign: origin.campaign,
    spam_reason: spamReason,
    mail_id: mailId(`contact.${id}`),
    call_start: null,
    call_end: null,
    call_status: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("contact_messages").values(row).execute();
    if (spam) return;
    if (notify) await enqueue(trx, contactNotice, { messageId: id }, { idempotencyKey: `contact.notice:${id}` });
    if (acknowledge)
      await enqueue(trx, acknowledgement, { messageId: id }, { idempotencyKey: `contact.acknowledgement:${id}` });
    await emit(trx, "contact.received", { id, name: row.name, email: row.email });
  });
  if (spam) await pruneSpam(db);
  return toMessage(row);
}

/** Keeps the newest SPAM_KEPT spam messages (ADR 070): a flood of spam cannot grow the table. */
async function pruneSpam(db: Db): Promise<void> {
  const oldestKept = await db
    .selectFrom("contact_messages")
    .select(["created_at", "id"])
    .where("status", "=", "spam")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .offset(SPAM_KEPT - 1)
    .limit(1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await db
    .deleteFrom("contact_messages")
    .where("status", "=", "spam")
    .where((eb) =>
      eb.or([
        eb("created_at", "<", oldestKept.created_at),
        eb.and([eb("created_at", "=", oldestKept.created_at), eb("id", "<", oldestKept.id)]),
      ]),
    )
    .execute();
}

interface MessageListPage {
  messages: ContactMessage[];
  /** Messages on every page. */
  total: number;
}

type MessagesExpression = ExpressionBuilder<Database, "contact_messages">;

/**
 * The inbox's filter as one condition (ADRs 035, 070): lead status, read state, and name or
 * e-mail contains `q` ignoring case, spelled the same on both backends
 * (`lower()` on both sides, an explicit escape character), as the posts'
 * title filter (ADR 026).
 */
function matching({ status, read, q }: Omit<MessageFilter, "sort">) {
  return (eb: MessagesExpression): Expression<SqlBool> => {
    const conditions: Array<Expression<SqlBool>> = [];
    // Spam is kept apart: "all" is every other status.
    conditions.push(status === "all" ? eb("status", "!=", "spam") : eb("status", "=", status));
    if (read === "unread") conditions.push(eb("read_at", "is", null));
    if (read === "read") conditions.push(eb("read_at", "is not", null));
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

/**
 * One page of the inbox, newest first or by follow-up day (messages without
 * one last, then newest first), and the number of messages matching its
 * filter. ADRs 026, 035, 070.
 */
export async function listContactMessages(
  db: Db,
  {
    limit,
    offset,
    status = "all",
    read = "all",
    sort = "newest",
    q,
  }: Partial<MessageFilter> & Pick<MessageListQuery, "limit" | "offset">,
): Promise<MessageListPage> {
  const filter = matching({ status, read, q });
  const [rows, counted] = await Promise.all([
    db
      .selectFrom("contact_messages")
      .selectAll()
      .where(filter)
      .$if(sort === "follow-up", (query) =>
        query.orderBy(sql`case when follow_up_at is null then 1 else 0 end`).orderBy("follow_up_at"),
      )
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
  return { messages: await withReplies(db, rows), total: Number(counted.count) };
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

/** Messages not yet marked read, spam aside, on every page (a partial index keeps this cheap: migration 007). */
export async function countUnreadMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom("contact_messages")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("read_at", "is", null)
    .where("status", "!=", "spam")
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
  return findMessage(db, id);
}

export async function deleteMessage(db: Db, id: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  const result = await db.deleteFrom("contact_messages").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A booked call's lead (ADR 071): who booked, their note, when the call is, and where their visit came from. */
export interface BookingLead {
  name: string;
  email: string;
  phone: string | null;
  message: string;
  call: { start: string; end: string };
  origin: LeadOrigin;
}

/**
 * Stores a booking's lead in the booking's transaction: a message with status
 * `new` and the call's time, no notice of its own (the booking sends one) and
 * no `contact.received` event (the booking emits `booking.created`).
 * Answers its id.
 */
export async function storeBookingLead(trx: Db, lead: BookingLead): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto("contact_messages")
    .values({
      id,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      preferred_contact: lead.phone ? "phone" : "email",
      service: "",
      message: lead.message,
      created_at: new Date().toISOString(),
      read_at: null,
      notice_status: "off",
      notice_attempts: 0,
      notice_next_at: null,
      notice_error: null,
      status: "new",
      note: null,
      follow_up_at: null,
      source_page: lead.origin.sourcePage,
      source: lead.origin.source,
      campaign: lead.origin.campaign,
      spam_reason: null,
      mail_id: mailId(`contact.${id}`),
      call_start: lead.call.start,
      call_end: lead.call.end,
      call_status: "booked",
    })
    .execute();
  return id;
}

/** Moves or cancels a booking's lead's call, in the booking's transaction. */
export async function setLeadCall(
  trx: Db,
  messageId: string,
  call: { start: string; end: string; status: "booked" | "cancelled" },
): Promise<void> {
  await trx
    .updateTable("contact_messages")
    .set({ call_start: call.start, call_end: call.end, call_status: call.status })
    .where("id", "=", messageId)
    .execute();
}
