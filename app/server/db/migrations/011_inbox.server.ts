import { sql, type Kysely } from "kysely";

/**
 * The inbox (ADR 035): "delete all from this sender" and the count it
 * confirms first look messages up by e-mail ignoring case. The search
 * ("name or e-mail contains") reads the inbox's order with the name and
 * e-mail beside it: SQLite tests them on the index entries and reads only
 * the matching rows, not every message's text (ADR 035's measurements);
 * it replaces (created_at, id) from migration 007.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("contact_messages_sender_idx")
    .on("contact_messages")
    .expression(sql`lower(email)`)
    .execute();
  await db.schema
    .createIndex("contact_messages_search_idx")
    .on("contact_messages")
    .columns(["created_at", "id", "name", "email"])
    .execute();
  // It serves the inbox's order as (created_at, id) did, which SQLite
  // otherwise keeps choosing for a search (the smaller index), reading
  // every row to test it.
  await db.schema.dropIndex("contact_messages_list_idx").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("contact_messages_list_idx")
    .on("contact_messages")
    .columns(["created_at", "id"])
    .execute();
  await db.schema.dropIndex("contact_messages_search_idx").execute();
  await db.schema.dropIndex("contact_messages_sender_idx").execute();
}
