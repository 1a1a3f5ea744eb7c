import { type Kysely } from "kysely";

/**
 * Autosave and revisions (issue 18, ADR 043): every save of a post keeps a
 * copy (the newest 50 per post), and each administrator has at most one
 * autosaved draft per post. Both go with their post.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("post_revisions")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("excerpt", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("fields", "text", (c) => c.notNull())
    .addColumn("admin_id", "varchar(36)")
    .addColumn("admin_name", "varchar(320)", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addUniqueConstraint("post_revisions_number_key", ["post_id", "number"])
    .execute();
  await db.schema
    .createTable("post_autosaves")
    .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("admin_id", "varchar(36)", (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("excerpt", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("fields", "text", (c) => c.notNull())
    .addColumn("base_updated_at", "varchar(30)", (c) => c.notNull())
    .addColumn("saved_at", "varchar(30)", (c) => c.notNull())
    .addPrimaryKeyConstraint("post_autosaves_pkey", ["post_id", "admin_id"])
    .execute();
  await db.schema.createIndex("post_autosaves_admin_idx").on("post_autosaves").column("admin_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("post_autosaves").execute();
  await db.schema.dropTable("post_revisions").execute();
}
