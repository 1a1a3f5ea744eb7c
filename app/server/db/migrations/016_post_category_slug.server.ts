import { type Kysely } from "kysely";

/**
 * Category pages (issue 18, ADR 041): each post's category
 * slug (the slug rule applied to its category, "" for none), filled for the posts
 * so far, and an index that reads a category's public posts newest first.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("posts")
    .addColumn("category_slug", "varchar(200)", (c) => c.notNull().defaultTo(""))
    .execute();
  await fillCategorySlugs(db as Kysely<TablesThen>);
  await db.schema
    .createIndex("posts_category_idx")
    .on("posts")
    // noindex and updated_at ride along so the sitemap's per-category reads never touch a row.
    .columns(["category_slug", "published", "publish_date", "id", "noindex", "updated_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("posts_category_idx").execute();
  await db.schema.alterTable("posts").dropColumn("category_slug").execute();
}

/** The tables as they were at this migration: the columns its data fix reads and writes. */
interface TablesThen {
  posts: { id: string; category: string; category_slug: string };
}

/** The longest category slug: a 100-character name whose lower case doubles some characters. */
const CATEGORY_SLUG_MAX = 200;

/**
 * The slug rule: lowercase, each run of characters other than a-z and 0-9
 * becomes one hyphen, a hyphen at either end is trimmed.
 */
function slugify(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      // After the line above no two hyphens are adjacent: trim one at each end.
      .replace(/^-|-$/g, "")
  );
}

/** A category name's slug; "" for a name with no letter or digit, or too long. */
function categorySlugOf(name: string): string {
  if (name.length > CATEGORY_SLUG_MAX) return "";
  const slug = slugify(name);
  return slug.length <= CATEGORY_SLUG_MAX ? slug : "";
}

/** Posts read per batch: a few hundred short rows in memory at a time, whatever the site's size. */
const BATCH = 500;

/**
 * Sets every post's category_slug from its category, in batches of BATCH by
 * id. A frozen copy, with the slug rule, of fillCategorySlugs and
 * categorySlugOf as this migration shipped (app/server/category-slugs.server.ts,
 * app/lib/categories.ts, app/lib/slug.ts): the migration does what it did
 * whatever those become (ADR 050).
 */
async function fillCategorySlugs(db: Kysely<TablesThen>): Promise<void> {
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
