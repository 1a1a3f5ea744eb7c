import { type Kysely } from "kysely";

/**
 * Guards of the analytics against one client faking its numbers (ADR 056),
 * both today's only and deleted with the day's salt, like the visitor hashes:
 *
 * `analytics_addresses`: per day, per client address (a hash under the day's
 * salt of the address, an IPv6 one by its /64: never the address), how many
 * visitors it has been counted as (they stop at a cap) and how many sources
 * or campaigns it has held (they stop at a budget).
 *
 * `analytics_held_keys`: a source or campaign seen from one address only so
 * far: its views (counted meanwhile under "(other)") and that address's hash,
 * so that a second address gives the key its own row with every view.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("analytics_addresses")
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("hash", "varchar(32)", (c) => c.notNull())
    .addColumn("visitors", "integer", (c) => c.notNull())
    .addColumn("held", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("analytics_addresses_pkey", ["day", "hash"])
    .execute();

  await db.schema
    .createTable("analytics_held_keys")
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("dimension", "varchar(20)", (c) => c.notNull())
    .addColumn("key", "varchar(300)", (c) => c.notNull())
    .addColumn("address", "varchar(32)", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("visitors", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("analytics_held_keys_pkey", ["day", "dimension", "key"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("analytics_held_keys").execute();
  await db.schema.dropTable("analytics_addresses").execute();
}
