import { type Kysely } from "kysely";

/**
 * Share links of drafts and scheduled posts (issue 18, ADR 044): only the
 * token's SHA-256 is stored; a link goes with its post and its creator.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("preview_links")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("created_by", "varchar(36)", (c) => c.notNull().references("admin_users.id").onDelete("cascade"))
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
    .addColumn("revoked_at", "varchar(30)")
    .execute();
  // A post's links (the list, the cap, the cascade); pruning reads expires_at.
  await db.schema
    .createIndex("preview_links_post_idx")
    .on("preview_links")
    .columns(["post_id", "created_at"])
    .execute();
  await db.schema.createIndex("preview_links_expires_idx").on("preview_links").column("expires_at").execute();
  await db.schema.createIndex("preview_links_creator_idx").on("preview_links").column("created_by").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("preview_links").execute();
}
