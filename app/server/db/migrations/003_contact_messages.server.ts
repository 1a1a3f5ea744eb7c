import { type Kysely } from "kysely";

/**
 * Messages sent with the contact form, kept for the admin's inbox, and the
 * state of each one's e-mail notice (ADR 008).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("contact_messages")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "varchar(320)", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("preferred_contact", "varchar(10)", (c) => c.notNull())
    .addColumn("service", "varchar(20)", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("read_at", "varchar(30)")
    // E-mail notice: 'off' (no SMTP), 'pending', 'sent' or 'failed' (gave up).
    .addColumn("notice_status", "varchar(10)", (c) => c.notNull())
    .addColumn("notice_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notice_next_at", "varchar(30)")
    .addColumn("notice_error", "text")
    .execute();
  await db.schema.createIndex("contact_messages_created_idx").on("contact_messages").column("created_at").execute();
  await db.schema
    .createIndex("contact_messages_notice_idx")
    .on("contact_messages")
    .columns(["notice_status", "notice_next_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("contact_messages").execute();
}
