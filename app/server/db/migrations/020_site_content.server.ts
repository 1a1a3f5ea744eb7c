import { type Kysely } from "kysely";

/**
 * Site content (issue 30, ADR 053): the published document of each editable
 * page, every published version (the newest 50 per page), one shared draft
 * per page, and share links of a page's draft. A page without a row shows
 * its original copy, so this migration writes no rows.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("site_content")
    .addColumn("name", "varchar(40)", (c) => c.primaryKey())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("published_at", "varchar(30)", (c) => c.notNull())
    .addColumn("published_by", "varchar(320)")
    .execute();
  await db.schema
    .createTable("site_content_revisions")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "varchar(40)", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("published_at", "varchar(30)", (c) => c.notNull())
    .addColumn("published_by", "varchar(320)")
    .addUniqueConstraint("site_content_revisions_version_key", ["name", "version"])
    .execute();
  await db.schema
    .createTable("site_content_drafts")
    .addColumn("name", "varchar(40)", (c) => c.primaryKey())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("base_version", "integer", (c) => c.notNull())
    .addColumn("draft_version", "integer", (c) => c.notNull())
    .addColumn("saved_at", "varchar(30)", (c) => c.notNull())
    .addColumn("saved_by", "varchar(320)")
    .execute();
  await db.schema
    .createTable("site_content_share_links")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "varchar(40)", (c) => c.notNull())
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("created_by", "varchar(36)", (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("site_content_share_links_name_idx")
    .on("site_content_share_links")
    .columns(["name", "created_at"])
    .execute();
  await db.schema
    .createIndex("site_content_share_links_creator_idx")
    .on("site_content_share_links")
    .column("created_by")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("site_content_share_links").execute();
  await db.schema.dropTable("site_content_drafts").execute();
  await db.schema.dropTable("site_content_revisions").execute();
  await db.schema.dropTable("site_content").execute();
}
