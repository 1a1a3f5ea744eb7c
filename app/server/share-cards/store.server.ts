import { sql } from "kysely";
import type { Db } from "../db/db.server";
import { drawShareCard } from "./drawer.server";
import { shareCardKey, type ShareCardSubject } from "./subject.server";

/**
 * The share_cards table (ADR 073): a card's bytes by its key, the page that
 * names it, when, and whether the page has named a newer one since.
 */

/** What the drawing job is given: the page, what its card shows, and when the page named it. */
export interface CardOrder {
  page: string;
  subject: ShareCardSubject;
  namedAt: string;
}

/**
 * Draws and stores a card unless it is stored already (what the job does),
 * and marks the page's cards named before it superseded, or this one, when
 * the page has named a newer card meanwhile (jobs may end out of order).
 */
export async function storeShareCard(db: Db, order: CardOrder): Promise<void> {
  const key = shareCardKey(order.page, order.subject);
  if (await shareCardExists(db, key)) return;
  const bytes = await drawShareCard(db, order.subject);
  if (!bytes) return;
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("share_cards")
      .values({ key, page: order.page, bytes, named_at: order.namedAt, superseded_at: null })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    await trx
      .updateTable("share_cards")
      .set({ superseded_at: now })
      .where("page", "=", order.page)
      .where("named_at", "<", order.namedAt)
      .where("superseded_at", "is", null)
      .execute();
    await trx
      .updateTable("share_cards")
      .set({ superseded_at: now })
      .where("key", "=", key)
      .where(
        sql<boolean>`exists (select 1 from share_cards newer where newer.page = ${order.page} and newer.named_at > ${order.namedAt})`,
      )
      .execute();
  });
}

export async function readShareCard(db: Db, key: string): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom("share_cards").select("bytes").where("key", "=", key).executeTakeFirst();
  return row?.bytes;
}

export async function shareCardExists(db: Db, key: string): Promise<boolean> {
  return (await db.selectFrom("share_cards").select("key").where("key", "=", key).executeTakeFirst()) !== undefined;
}
