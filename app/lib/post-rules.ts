/**
 * The texts and defaults for posts (docs/product/contract.md#posts), without the zod schema, so the admin
 * editor can use them in the browser without shipping the validator.
 */
export const REQUIRED_FIELDS_MESSAGE = "Please fill in all required fields: title, slug, excerpt, and content";
export const MALFORMED_SLUG_MESSAGE =
  "Slug may contain only lowercase letters a-z, digits and single hyphens between them";
/** Slugs that name a page of the blog's own (/blog/search, ADR 042): no post may use them. */
export const RESERVED_SLUGS: readonly string[] = ["search"];
export const reservedSlugMessage = (slug: string) =>
  `The slug "${slug}" is taken by the blog's own /blog/${slug} page; choose another slug`;
export const DEFAULT_READ_TIME = "5 min read";

/** Longest meta title, meta description and image alt text: well above what search engines show (about 60, 160 and 125). */
export const MAX_META_TITLE = 200;
export const MAX_META_DESCRIPTION = 500;
export const MAX_IMAGE_ALT = 500;
