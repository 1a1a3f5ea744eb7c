import { sql, type Kysely } from "kysely";

/**
 * The admin's paged lists (ADR 026): each order a page is read in has an
 * index, so a page costs the same on page 1 and page 2,000, with 100,000
 * posts or messages.
 */

export async function up(db: Kysely<any>): Promise<void> {
  // Newest publishDate first, then id (newestFirst); read backwards, oldest
  // first. The title is there for the title filter: SQLite tests it on the
  // index entry before it reads the row (ADR 026's measurements).
  await db.schema
    .createIndex("posts_publish_date_idx")
    .on("posts")
    .columns(["publish_date desc", "id", "title"])
    .execute();
  // Title A to Z ignoring case, then id; read backwards, Z to A.
  await db.schema
    .createIndex("posts_title_idx")
    .on("posts")
    .expression(sql`lower(title), id`)
    .execute();
  // Newest first, then id; (created_at) alone left the id to a sort.
  await db.schema
    .createIndex("contact_messages_list_idx")
    .on("contact_messages")
    .columns(["created_at", "id"])
    .execute();
  await db.schema.dropIndex("contact_messages_created_idx").execute();
  // The unread count: only unread messages are in it.
  await db.schema
    .createIndex("contact_messages_unread_idx")
    .on("contact_messages")
    .column("created_at")
    .where(sql.ref("read_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("contact_messages_unread_idx").execute();
  await db.schema.createIndex("contact_messages_created_idx").on("contact_messages").column("created_at").execute();
  await db.schema.dropIndex("contact_messages_list_idx").execute();
  await db.schema.dropIndex("posts_title_idx").execute();
  await db.schema.dropIndex("posts_publish_date_idx").execute();
}
