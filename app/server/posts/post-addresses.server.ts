import type { Transaction } from "kysely";
import { categoryFeedHref, categoryHref } from "~/lib/categories";
import type { Database } from "../db/schema.server";
import { dropRedirectsTo, followAddressChange, takeAddress } from "../redirects/index.server";

/**
 * What a post's write does to the redirects (ADR 054), in the write's own
 * transaction: a post or category that takes an address wins over a
 * redirect from it; a renamed slug, or a category whose last post moved to
 * another, leaves a 301 from every earlier address in one hop; a deleted
 * post, or an emptied category, leaves no redirect leading to it.
 */

type Trx = Transaction<Database>;

const postPath = (slug: string) => `/blog/${slug}`;
const categoryPaths = (slug: string) => [categoryHref(slug), categoryFeedHref(slug)];

/** The address as a post and category have it, before or after a write. */
export interface Addresses {
  slug: string;
  categorySlug: string;
}

async function categoryIsEmpty(trx: Trx, slug: string): Promise<boolean> {
  const row = await trx.selectFrom("posts").select("id").where("category_slug", "=", slug).limit(1).executeTakeFirst();
  return row === undefined;
}

async function takeCategory(trx: Trx, slug: string): Promise<void> {
  if (slug === "") return;
  for (const path of categoryPaths(slug)) await takeAddress(trx, path);
}

/** A post was created at these addresses. */
export async function postCreated(trx: Trx, after: Addresses): Promise<void> {
  await takeAddress(trx, postPath(after.slug));
  await takeCategory(trx, after.categorySlug);
}

/** A post moved from `before` to `after` (either may be the same). */
export async function postMoved(trx: Trx, before: Addresses, after: Addresses): Promise<void> {
  if (before.slug !== after.slug) await followAddressChange(trx, postPath(before.slug), postPath(after.slug));
  if (before.categorySlug === after.categorySlug) return;
  await takeCategory(trx, after.categorySlug);
  if (before.categorySlug === "" || !(await categoryIsEmpty(trx, before.categorySlug))) return;
  const [oldPage, oldFeed] = categoryPaths(before.categorySlug) as [string, string];
  if (after.categorySlug === "") {
    await dropRedirectsTo(trx, oldPage);
    await dropRedirectsTo(trx, oldFeed);
    return;
  }
  const [newPage, newFeed] = categoryPaths(after.categorySlug) as [string, string];
  await followAddressChange(trx, oldPage, newPage);
  await followAddressChange(trx, oldFeed, newFeed);
}

/** A post was deleted. */
export async function postDeleted(trx: Trx, before: Addresses): Promise<void> {
  await dropRedirectsTo(trx, postPath(before.slug));
  if (before.categorySlug === "" || !(await categoryIsEmpty(trx, before.categorySlug))) return;
  for (const path of categoryPaths(before.categorySlug)) await dropRedirectsTo(trx, path);
}
