import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.server";
import { categorySlugOf } from "~/lib/categories";

/** Posts read per batch: a few hundred short rows in memory at a time, whatever the site's size. */
const BATCH = 500;

/**
 * Sets every post's `category_slug` from its category, in batches of BATCH
 * by id (keyset, so each batch is one index range). For migration 016 and
 * for writes that bring rows from elsewhere (a backup's restore, the
 * SQLite to PostgreSQL copy), which may come from a version without the
 * column or from SQL written by hand. Run it inside the caller's transaction.
 */
export async function fillCategorySlugs(db: Kysely<Database> | Transaction<Database>): Promise<void> {
  let after: string | undefined;
  for (;;) {
    let query = db.selectFrom("posts").select(["id", "category", "category_slug"]).orderBy("id").limit(BATCH);
    if (after !== undefined) query = query.where("id", ">", after);
    const rows = await query.execute();
    const bySlug = new Map<string, string[]>();
    for (const row of rows) {
      const slug = categorySlugOf(row.category);
      if (slug === row.category_slug) continue;
      bySlug.set(slug, [...(bySlug.get(slug) ?? []), row.id]);
    }
    for (const [slug, ids] of bySlug) {
      await db.updateTable("posts").set({ category_slug: slug }).where("id", "in", ids).execute();
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
