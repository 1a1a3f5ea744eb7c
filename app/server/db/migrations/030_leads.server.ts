import { type Kysely } from "kysely";

/**
 * The lead desk (issue 44, ADR 070).
 *
 * `contact_messages` gains a lead's state: its `status` (new, contacted,
 * qualified, won, lost, spam; every existing message is `new`), the owner's
 * private `note`, a `follow_up_at` day (YYYY-MM-DD), where it came from
 * (`source_page`, `source`, `campaign`), why it was judged spam
 * (`spam_reason`) and the Message-ID of its notice (`mail_id`), which
 * replies thread under. Indexes serve the inbox's filter by status, newest
 * first, and its order by follow-up day.
 *
 * `message_replies`: the owner's replies, each sent by a job; at most one
 * per message and idempotency key.
 *
 * `saved_replies`: answers the owner reuses.
 *
 * `site_settings` gains the acknowledgement: on or off (off by default) and
 * its text (NULL: the default text).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("contact_messages")
    .addColumn("status", "varchar(12)", (c) => c.notNull().defaultTo("new"))
    .execute();
  for (const [column, type] of [
    ["note", "text"],
    ["follow_up_at", "varchar(10)"],
    ["source_page", "varchar(300)"],
    ["source", "varchar(253)"],
    ["campaign", "varchar(100)"],
    ["spam_reason", "varchar(40)"],
    ["mail_id", "varchar(200)"],
  ] as const) {
    await db.schema.alterTable("contact_messages").addColumn(column, type).execute();
  }
  await db.schema
    .createIndex("contact_messages_status_idx")
    .on("contact_messages")
    .columns(["status", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("contact_messages_follow_up_idx")
    .on("contact_messages")
    .columns(["follow_up_at", "created_at"])
    .execute();

  await db.schema
    .createTable("message_replies")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("message_id", "varchar(36)", (c) => c.notNull().references("contact_messages.id").onDelete("cascade"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "varchar(10)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "varchar(300)")
    .addColumn("idempotency_key", "varchar(200)")
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("sent_at", "varchar(30)")
    .execute();
  await db.schema
    .createIndex("message_replies_message_idx")
    .on("message_replies")
    .columns(["message_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("message_replies_key_idx")
    .on("message_replies")
    .columns(["message_id", "idempotency_key"])
    .unique()
    .execute();

  await db.schema
    .createTable("saved_replies")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable("site_settings")
    .addColumn("acknowledge_messages", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("site_settings").addColumn("acknowledgement_text", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("site_settings").dropColumn("acknowledgement_text").execute();
  await db.schema.alterTable("site_settings").dropColumn("acknowledge_messages").execute();
  await db.schema.dropTable("saved_replies").execute();
  await db.schema.dropTable("message_replies").execute();
  await db.schema.dropIndex("contact_messages_follow_up_idx").execute();
  await db.schema.dropIndex("contact_messages_status_idx").execute();
  for (const column of [
    "mail_id",
    "spam_reason",
    "campaign",
    "source",
    "source_page",
    "follow_up_at",
    "note",
    "status",
  ])
    await db.schema.alterTable("contact_messages").dropColumn(column).execute();
}
