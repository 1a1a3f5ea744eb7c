import { type Kysely } from "kysely";

/**
 * Per-post SEO (issue 18, ADR 040): an optional title and
 * description for search results and share previews, the header image's
 * alt text, and "hide from search engines". Null and 0 for every post so far.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("posts").addColumn("meta_title", "text").execute();
  await db.schema.alterTable("posts").addColumn("meta_description", "text").execute();
  await db.schema.alterTable("posts").addColumn("header_image_alt", "text").execute();
  await db.schema
    .alterTable("posts")
    .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["noindex", "header_image_alt", "meta_description", "meta_title"]) {
    await db.schema.alterTable("posts").dropColumn(column).execute();
  }
}
