/**
 * The slug rule (docs/product/contract.md#slugs): lowercase the title, replace each run of characters other than
 * a-z and 0-9 with one hyphen, trim leading and trailing hyphens.
 */
export function slugify(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      // After the line above no two hyphens are adjacent: trim one at each end.
      .replace(/^-|-$/g, "")
  );
}

/** A slug is malformed when the slug rule would change it (docs/product/contract.md#slugs). */
export function isWellFormedSlug(slug: string): boolean {
  return slug !== "" && slugify(slug) === slug;
}
