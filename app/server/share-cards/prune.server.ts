import type { Db } from "../db/db.server";

/**
 * Cards no page has named for 30 days go (a changed title leaves its old card
 * behind), and the table never holds more than MAX_SHARE_CARDS (about 50 KB
 * each): the ones named longest ago go first. A card pruned while still in
 * use is drawn again the next time its page renders.
 */
const KEPT_DAYS = 30;
const MAX_SHARE_CARDS = 5_000;

export async function pruneShareCards(db: Db, now = Date.now(), max = MAX_SHARE_CARDS): Promise<number> {
  const before = new Date(now - KEPT_DAYS * 24 * 60 * 60_000).toISOString();
  const old = await db.deleteFrom("share_cards").where("seen_at", "<", before).executeTakeFirst();
  let removed = Number(old.numDeletedRows);
  const { count } = await db
    .selectFrom("share_cards")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  const excess = Number(count) - max;
  if (excess > 0) {
    const extra = await db
      .deleteFrom("share_cards")
      .where("key", "in", (eb) => eb.selectFrom("share_cards").select("key").orderBy("seen_at").limit(excess))
      .executeTakeFirst();
    removed += Number(extra.numDeletedRows);
  }
  return removed;
}
