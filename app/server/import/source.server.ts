import { MAX_IMPORT_FILE_BYTES } from "~/lib/import";

/**
 * What an export says about one post, the same for WordPress and Ghost
 * (ADR 074): each reader (wxr.server.ts, ghost.server.ts) streams its file
 * and yields these one at a time, so memory stays flat however long the
 * file; run.server.ts makes posts, images and redirects of them. Every text
 * is bounded by the reader before it is kept (IMPORT_LIMITS).
 */

/** The kinds of export the site reads. */
export type SourceKind = "wordpress" | "ghost";

export const IMPORT_LIMITS = {
  /** The largest file taken: a 5,000-post WordPress export is about 25 MB. */
  fileBytes: MAX_IMPORT_FILE_BYTES,
  /** Characters of one post's HTML kept; a longer body makes the post a problem, not a post. */
  htmlChars: 1_000_000,
  /** Characters of any other text (title, excerpt, names, URLs) kept; the rest is cut. */
  textChars: 4_000,
  /** Posts (and pages, attachments...) read from one file at most; the rest are reported. */
  items: 20_000,
  /** Names kept from a file's first pass (categories, tags, attachments, authors). */
  names: 50_000,
  /** Problems kept in an import's report; past it, only counted. */
  problems: 100,
} as const;

/** The state a post arrives in: WordPress `future` is scheduled, `private` a draft. */
export type SourceState = "published" | "draft" | "scheduled";

export interface SourcePost {
  /** The key that makes a second import of the same file add nothing: `wordpress:{site}:{post_id}`, `ghost:{id}`. */
  sourceKey: string;
  title: string;
  /** As the source spelled it; the importer makes it a slug of this site's rule. */
  slug: string;
  /** "" when the source has none: the importer takes the start of the text. */
  excerpt: string;
  html: string;
  /** "" when the source names none. */
  author: string;
  /** The first category (WordPress) or primary tag (Ghost), and its old archive's path. */
  category: { name: string; oldPath: string | null } | null;
  state: SourceState;
  /** ISO 8601; null when the source has none (a draft never published). */
  publishDate: string | null;
  /** Old addresses on the old site that lead to this post: the permalink's path, `/?p=ID`. */
  oldPaths: string[];
  /** The featured image, absolute when the source says where the old site is. */
  featureImage: { url: string; alt: string } | null;
  /** The old site's address, to resolve relative image URLs against; null when unknown. */
  siteUrl: string | null;
  /** Why this item is not imported (a page, an attachment's own item, a trashed post, too long), else undefined. */
  skip?: string;
}

/** The stored file, read from its start as many times as a reader needs (both readers make two passes). */
export type ReadFile = () => AsyncIterable<Uint8Array>;

/** A file that cannot be imported, with the message the owner sees; nothing was imported from it. */
export class ImportFileError extends Error {
  override name = "ImportFileError";
}

/** Cuts a text to `max` characters (IMPORT_LIMITS.textChars unless said). */
export function bounded(text: string, max: number = IMPORT_LIMITS.textChars): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** A site's address as the import keeps it: scheme, host and path, no trailing slash. */
export function siteAddress(url: URL): string {
  return `${url.protocol}//${url.host}${withoutTrailingSlashes(url.pathname)}`;
}

/** A path or URL without its trailing slashes (a loop: a pattern here could backtrack). */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 47) end--;
  return text.slice(0, end);
}
