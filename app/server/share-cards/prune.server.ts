import type { Db } from "../db/db.server";

/**
 * A page's newest card stays while the page names it; the cards it named
 * before (a title since changed) go 30 days after they were superseded, time
 * enough for shares already out. The table never holds more than
 * MAX_SHARE_CARDS (about 25 KB each): past it, superseded cards go first,
 * then the cards named longest ago; a page whose card went this way has it
 * drawn again on its next render.
 */
const KEPT_DAYS = 30;
const MAX_SHARE_CARDS = 5_000;

export async function pruneShareCards(db: Db, now = Date.now(), max = MAX_SHARE_CARDS): Promise<number> {
  const before = new Date(now - KEPT_DAYS * 24 * 60 * 60_000).toISOString();
  const old = await db.deleteFrom("share_cards").where("superseded_at", "<", before).executeTakeFirst();
  let removed = Number(old.numDeletedRows);
  const { count } = await db
    .selectFrom("share_cards")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  const excess = Number(count) - max;
  if (excess > 0) {
    const extra = await db
      .deleteFrom("share_cards")
      .where("key", "in", (eb) =>
        eb
          .selectFrom("share_cards")
          .select("key")
          // Superseded first (a null sorts last in both dialects when asked), then the oldest named.
          .orderBy(eb.case().when("superseded_at", "is", null).then(1).else(0).end())
          .orderBy("named_at")
          .limit(excess),
      )
      .executeTakeFirst();
    removed += Number(extra.numDeletedRows);
  }
  return removed;
}
