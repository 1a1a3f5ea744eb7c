import { sql, type Kysely } from "kysely";
import { isPostgres } from "../dialect.server";

/**
 * Imports from WordPress and Ghost (issue 48, ADR 074). `imports` is one
 * upload and its report; `import_chunks` holds its file in pieces of about
 * 1 MiB while the work runs (any process may resume it, so the file lives in
 * the database, not on one machine's disk), and goes when the import ends.
 * `import_items` remembers each source post's key and the post made of it,
 * so a second import of the same file adds nothing; `import_images` each
 * image URL fetched and where it is stored now. Redirects get an `imported`
 * mark: the Redirects screen shows it, and the owner's own limit does not
 * count them.
 */

export async function up(db: Kysely<any>): Promise<void> {
  const binary = isPostgres(db) ? sql`bytea` : sql`blob`;
  await db.schema
    .createTable("imports")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("status", "varchar(20)", (c) => c.notNull())
    .addColumn("kind", "varchar(20)")
    .addColumn("file_name", "varchar(300)", (c) => c.notNull())
    .addColumn("byte_size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("site_url", "varchar(2048)")
    .addColumn("total", "integer")
    .addColumn("processed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("known", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("redirects", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("images_fetched", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("images_failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("problems", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("more_problems", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("created_by", "varchar(320)", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .addColumn("finished_at", "varchar(30)")
    .execute();
  await db.schema.createIndex("imports_created_idx").on("imports").column("created_at").execute();
  await db.schema
    .createTable("import_chunks")
    .addColumn("import_id", "varchar(36)", (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("bytes", binary, (c) => c.notNull())
    .addPrimaryKeyConstraint("import_chunks_pk", ["import_id", "seq"])
    .execute();
  await db.schema
    .createTable("import_items")
    .addColumn("source_key", "varchar(400)", (c) => c.primaryKey())
    .addColumn("import_id", "varchar(36)", (c) => c.notNull())
    .addColumn("post_id", "varchar(36)")
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("import_images")
    .addColumn("url_hash", "varchar(64)", (c) => c.primaryKey())
    .addColumn("image_url", "varchar(300)", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable("redirects")
    .addColumn("imported", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
