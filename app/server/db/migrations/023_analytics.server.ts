import { type Kysely } from "kysely";

/**
 * Privacy-first analytics (issue 32, ADR 056). Days are UTC dates spelled
 * YYYY-MM-DD (they sort the same in both engines).
 *
 * `analytics_days`: one row per day: views, visitors, contact messages sent
 * (conversions), and how many visitor hashes the day wrote (`marks`, which
 * has a ceiling per day).
 *
 * `analytics_counts`: per day, per dimension (page, source, campaign,
 * device, conversion_page, conversion_source), per key: `hits` (views, or
 * contact messages for the conversion dimensions) and `visitors`. At most a
 * set number of keys per day and dimension; the rest are summed under one
 * key. Pruned by day (the primary key starts with it).
 *
 * `analytics_salts`: the day's random salt, shared by every process; deleted
 * once its day is over.
 *
 * `analytics_visitor_hashes`: today's visitor hashes, one per visitor and
 * dimension key, so that a visitor seen by two processes is counted once;
 * deleted with the day's salt. The key starts with day and hash, so a
 * visitor's sources are found by index.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("analytics_days")
    .addColumn("day", "varchar(10)", (c) => c.primaryKey())
    .addColumn("views", "integer", (c) => c.notNull())
    .addColumn("visitors", "integer", (c) => c.notNull())
    .addColumn("conversions", "integer", (c) => c.notNull())
    .addColumn("marks", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("analytics_counts")
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("dimension", "varchar(20)", (c) => c.notNull())
    .addColumn("key", "varchar(300)", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("visitors", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("analytics_counts_pkey", ["day", "dimension", "key"])
    .execute();

  await db.schema
    .createTable("analytics_salts")
    .addColumn("day", "varchar(10)", (c) => c.primaryKey())
    .addColumn("salt", "varchar(64)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("analytics_visitor_hashes")
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("hash", "varchar(32)", (c) => c.notNull())
    .addColumn("dimension", "varchar(20)", (c) => c.notNull())
    .addColumn("key", "varchar(300)", (c) => c.notNull())
    .addPrimaryKeyConstraint("analytics_visitor_hashes_pkey", ["day", "hash", "dimension", "key"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("analytics_visitor_hashes").execute();
  await db.schema.dropTable("analytics_salts").execute();
  await db.schema.dropTable("analytics_counts").execute();
  await db.schema.dropTable("analytics_days").execute();
}
