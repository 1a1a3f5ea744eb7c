import { slugify } from "./slug";

/**
 * Category pages (issue 18, docs/product/contract.md#categories): `/blog/category/{slug}`, paged like
 * /blog (`?page=N`), with a feed at `/blog/category/{slug}/rss.xml`. The slug
 * is the slug rule (docs/product/contract.md#slugs) applied to the category's name, so names that differ
 * only in case or punctuation ("Web Design", "web design") share one page.
 */

/**
 * A category name is at most 100 characters (post-input.server.ts); lower
 * casing can double a character ("İ" is "i" and a combining dot, which the
 * rule turns into "i-"), so its slug is at most 200.
 */
export const CATEGORY_SLUG_MAX = 200;

/**
 * The slug of a category name; "" (no page) for an empty name, one without a
 * letter or digit, or one whose slug would be longer than CATEGORY_SLUG_MAX
 * (only a name written past the API's limit, straight into the database).
 */
export function categorySlugOf(name: string): string {
  if (name.length > CATEGORY_SLUG_MAX) return "";
  const slug = slugify(name);
  return slug.length <= CATEGORY_SLUG_MAX ? slug : "";
}

/** A slug a category page can have: well formed and not too long; anything else is a 404 before any query. */
export function isCategorySlug(value: string): boolean {
  return value.length > 0 && value.length <= CATEGORY_SLUG_MAX && slugify(value) === value;
}

/** The crawlable URL of a category's list page; page 1 has no `?page`. */
export function categoryHref(slug: string, page = 1): string {
  return page > 1 ? `/blog/category/${slug}?page=${page}` : `/blog/category/${slug}`;
}

/** The category's RSS feed. */
export function categoryFeedHref(slug: string): string {
  return `/blog/category/${slug}/rss.xml`;
}
