import type { Db } from "../db/db.server";
import { drawShareCard } from "./drawer.server";
import { shareCardKey, type ShareCardSubject } from "./subject.server";

/** The share_cards table (ADR 073): a card's bytes by its key, and when a page last named it. */

/** Draws and stores a card unless it is stored already: what the job does. */
export async function storeShareCard(db: Db, subject: ShareCardSubject): Promise<void> {
  const key = shareCardKey(subject);
  const stored = await db.selectFrom("share_cards").select("key").where("key", "=", key).executeTakeFirst();
  if (stored) return;
  const bytes = await drawShareCard(db, subject);
  if (!bytes) return;
  const now = new Date().toISOString();
  await db
    .insertInto("share_cards")
    .values({ key, bytes, created_at: now, seen_at: now })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}

export async function readShareCard(db: Db, key: string): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom("share_cards").select("bytes").where("key", "=", key).executeTakeFirst();
  return row?.bytes;
}

export async function shareCardExists(db: Db, key: string): Promise<boolean> {
  return (await db.selectFrom("share_cards").select("key").where("key", "=", key).executeTakeFirst()) !== undefined;
}

/** Whether a card is stored and when a page last named it (`YYYY-MM-DD...`). */
export async function shareCardSeenAt(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom("share_cards").select("seen_at").where("key", "=", key).executeTakeFirst();
  return row?.seen_at;
}

export async function markShareCardSeen(db: Db, key: string): Promise<void> {
  await db.updateTable("share_cards").set({ seen_at: new Date().toISOString() }).where("key", "=", key).execute();
}
