import { type Kysely } from "kysely";

/**
 * Redirects and the not-found log (issue 31, ADR 054).
 *
 * `redirects`: one row per old address (`from_path`, unique), pointing at a
 * path on this site or an https address (`to_target`); `to_path` is the path
 * part of a target on this site, so the redirects that point at an address
 * are found by index when it moves or goes (chains are collapsed at save).
 *
 * `not_found_paths`: every path that answered 404, with its hits, last time
 * and last referring host; kept to a bounded number of rows, the least hit
 * removed first (the index on hits).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("redirects")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("from_path", "varchar(500)", (c) => c.notNull().unique())
    .addColumn("to_target", "varchar(1000)", (c) => c.notNull())
    .addColumn("to_path", "varchar(1000)")
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("automatic", "integer", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("redirects_to_path_idx").on("redirects").column("to_path").execute();

  await db.schema
    .createTable("not_found_paths")
    .addColumn("path", "varchar(300)", (c) => c.primaryKey())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("last_seen_at", "varchar(30)", (c) => c.notNull())
    .addColumn("referrer_host", "varchar(253)")
    .execute();
  await db.schema.createIndex("not_found_paths_hits_idx").on("not_found_paths").columns(["hits", "path"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("not_found_paths").execute();
  await db.schema.dropTable("redirects").execute();
}
