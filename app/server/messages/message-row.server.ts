import type { Selectable } from "kysely";
import type { LeadStatus } from "~/lib/leads";
import type { ContactMessagesTable, MessageRepliesTable } from "../db/schema.server";

/** A message as the API and the screens see it (ADRs 035, 070), from its row and its replies' rows. */

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
  /** The lead (ADR 070): its status, the owner's note and follow-up day, where it came from, why it is spam. */
  status: LeadStatus;
  note: string | null;
  followUpAt: string | null;
  sourcePage: string | null;
  source: string | null;
  campaign: string | null;
  spamReason: string | null;
  /** The owner's replies, oldest first. */
  replies: Reply[];
  /** A booked call's lead (ADR 071): when the call is, and whether it still stands; null for a message. */
  call: { start: string; end: string; status: "booked" | "cancelled" } | null;
}

export interface Reply {
  id: string;
  body: string;
  status: MessageRepliesTable["status"];
  attempts: number;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
}

export type Row = Selectable<ContactMessagesTable>;
export type ReplyRow = Selectable<MessageRepliesTable>;

export const toReply = (row: ReplyRow): Reply => ({
  id: row.id,
  body: row.body,
  status: row.status,
  attempts: Number(row.attempts),
  error: row.last_error,
  createdAt: row.created_at,
  sentAt: row.sent_at,
});

export function toMessage(row: Row, replies: ReplyRow[] = []): ContactMessage {
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
    status: row.status,
    note: row.note,
    followUpAt: row.follow_up_at,
    sourcePage: row.source_page,
    source: row.source,
    campaign: row.campaign,
    spamReason: row.spam_reason,
    replies: replies.map(toReply),
    call:
      row.call_start && row.call_end
        ? { start: row.call_start, end: row.call_end, status: row.call_status ?? "booked" }
        : null,
  };
}
