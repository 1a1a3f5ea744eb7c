import { sql, type Kysely } from "kysely";
import { isPostgres } from "../dialect.server";

/**
 * Share cards (issue 47, ADR 073): the 1200x630 JPEG a shared link shows,
 * one row per page and version of what it shows. `key` is the hash of the
 * page's path, of everything the card shows and of the renderer's version,
 * so a card's bytes never change and its URL can be cached for ever.
 * `named_at` is when the page first named this card; `superseded_at` when a
 * card the page named later was stored: superseded cards go 30 days later.
 * The binary column's type is spelled out per dialect, as in migration 002.
 */

export async function up(db: Kysely<any>): Promise<void> {
  const binary = isPostgres(db) ? sql`bytea` : sql`blob`;
  await db.schema
    .createTable("share_cards")
    .addColumn("key", "varchar(64)", (c) => c.primaryKey())
    .addColumn("page", "varchar(300)", (c) => c.notNull())
    .addColumn("bytes", binary, (c) => c.notNull())
    .addColumn("named_at", "varchar(30)", (c) => c.notNull())
    .addColumn("superseded_at", "varchar(30)")
    .execute();
  await db.schema.createIndex("share_cards_page_idx").on("share_cards").columns(["page", "named_at"]).execute();
  await db.schema.createIndex("share_cards_superseded_idx").on("share_cards").column("superseded_at").execute();
}
