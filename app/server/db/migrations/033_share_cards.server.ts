import { sql, type Kysely } from "kysely";
import { isPostgres } from "../dialect.server";

/**
 * Share cards (issue 47, ADR 073): the 1200x630 JPEG a shared link shows,
 * one row per distinct card. `key` is the hash of everything the card shows
 * (and of the renderer's version), so a card's bytes never change and its
 * URL can be cached for ever. `seen_at` is when a page last named the card
 * (a day's precision): cards no page has named for 30 days are pruned.
 * The binary column's type is spelled out per dialect, as in migration 002.
 */

export async function up(db: Kysely<any>): Promise<void> {
  const binary = isPostgres(db) ? sql`bytea` : sql`blob`;
  await db.schema
    .createTable("share_cards")
    .addColumn("key", "varchar(64)", (c) => c.primaryKey())
    .addColumn("bytes", binary, (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("seen_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("share_cards_seen_idx").on("share_cards").column("seen_at").execute();
}
