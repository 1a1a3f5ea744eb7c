import { type Kysely } from "kysely";

/**
 * A counter bumped by every write that changes public pages, so each app
 * process can tell with one cheap read whether its cached pages are current
 * (see app/server/page-cache/ and ADR 024).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("content_version")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
  await db.insertInto("content_version").values({ id: 1, version: 1 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("content_version").execute();
}
