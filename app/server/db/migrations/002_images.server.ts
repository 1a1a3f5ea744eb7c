import { sql, type Kysely } from "kysely";
import { isPostgres } from "../dialect.server";

/**
 * Uploaded images live in the database (no local disk: several app processes share them), keyed by
 * the SHA-256 of the uploaded bytes, so their URLs never change meaning.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("images")
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("source_format", "varchar(10)", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("content_type", "varchar(50)", (c) => c.notNull())
    .addColumn("byte_size", "integer", (c) => c.notNull())
    // The upload, re-encoded in its own format with its metadata stripped.
    .addColumn("bytes", binaryType(db), (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("image_variants")
    .addColumn("image_id", "varchar(64)", (c) => c.notNull().references("images.id").onDelete("cascade"))
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("format", "varchar(10)", (c) => c.notNull())
    .addColumn("content_type", "varchar(50)", (c) => c.notNull())
    .addColumn("byte_size", "integer", (c) => c.notNull())
    .addColumn("bytes", binaryType(db), (c) => c.notNull())
    .addPrimaryKeyConstraint("image_variants_pk", ["image_id", "format", "width"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("image_variants").execute();
  await db.schema.dropTable("images").execute();
}

/**
 * Binary column type: Kysely writes data types verbatim and PostgreSQL has no
 * "blob", so the one dialect difference is spelled out here (bytea there).
 */
function binaryType(db: Kysely<any>) {
  return isPostgres(db) ? sql`bytea` : sql`blob`;
}
