import { z } from "zod";
import {
  DEFAULT_READ_TIME,
  MALFORMED_SLUG_MESSAGE,
  RESERVED_SLUGS,
  reservedSlugMessage,
  MAX_IMAGE_ALT,
  MAX_META_DESCRIPTION,
  MAX_META_TITLE,
  REQUIRED_FIELDS_MESSAGE,
} from "~/lib/post-rules";
import { isWellFormedSlug } from "~/lib/slug";

/**
 * The longest text a post field takes: 50,000 characters (about 7,500
 * words). Rendering markdown costs memory in proportion (ADR 023's worker has
 * 64 MB of heap), so the bound is set by what renders within it.
 */
export const MAX_POST_TEXT = 50_000;

const text = (field: string) =>
  z.string({ error: `${field} must be text` }).max(MAX_POST_TEXT, {
    error: `${field} is too long (${MAX_POST_TEXT.toLocaleString("en-US")} characters at most)`,
  });

/** A text that may be left out: trimmed, and null when blank. */
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max, { error: `${field} is too long (${max} characters at most)` })
    .nullish()
    .transform((v) => v?.trim() || null);

/**
 * A post as the admin editor sends it (POST and PUT bodies). Required fields
 * may arrive missing or empty: both get the one message of docs/product/contract.md#required-fields, checked
 * separately so that it wins over any other problem.
 */
export const postInputSchema = z.object({
  title: text("title").max(300, { error: "title is too long (300 characters at most)" }).default(""),
  slug: text("slug").max(200, { error: "slug is too long (200 characters at most)" }).default(""),
  excerpt: text("excerpt").max(2000, { error: "excerpt is too long (2000 characters at most)" }).default(""),
  content: text("content").default(""),
  category: text("category")
    .max(100, { error: "category is too long" })
    .nullish()
    .transform((v) => (v ?? "").trim()),
  author: text("author")
    .max(200)
    .nullish()
    .transform((v) => v?.trim() || undefined),
  readTime: text("readTime")
    .max(50)
    .nullish()
    .transform((v) => v?.trim() || DEFAULT_READ_TIME),
  published: z
    .boolean({ error: "published must be true or false" })
    .nullish()
    .transform((v) => v ?? false),
  publishDate: z
    .string({ error: "publishDate must be an ISO 8601 date-time" })
    .nullish()
    .refine((v) => v == null || v === "" || !Number.isNaN(Date.parse(v)), {
      error: "publishDate must be an ISO 8601 date-time",
    })
    .transform((v) => (v ? new Date(v).toISOString() : undefined)),
  headerImage: z
    .string({ error: "headerImage must be a URL" })
    .max(2000)
    .nullish()
    .refine((v) => !v || v.startsWith("/") || /^https?:\/\/\S+$/i.test(v), {
      error: "headerImage must be an http(s) URL or a path on this site",
    })
    .transform((v) => v || null),
  // Per-post SEO (docs/product/contract.md#post-seo-fields): omitted, null or blank is null.
  metaTitle: optionalText("metaTitle", MAX_META_TITLE),
  metaDescription: optionalText("metaDescription", MAX_META_DESCRIPTION),
  headerImageAlt: optionalText("headerImageAlt", MAX_IMAGE_ALT),
  noindex: z
    .boolean({ error: "noindex must be true or false" })
    .nullish()
    .transform((v) => v ?? false),
  // The newsletter (issue 46): mail the post to the subscribers once it becomes public.
  emailSubscribers: z
    .boolean({ error: "emailSubscribers must be true or false" })
    .nullish()
    .transform((v) => v ?? false),
});

export type PostInput = z.output<typeof postInputSchema>;

type PostInputResult = { ok: true; value: PostInput } | { ok: false; message: string };

export function parsePostInput(body: unknown): PostInputResult {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, message: "Request body must be a JSON object" };
  }
  const parsed = postInputSchema.safeParse(body);
  const raw = body as Record<string, unknown>;
  const missing = (["title", "slug", "excerpt", "content"] as const).some(
    (field) => raw[field] == null || (typeof raw[field] === "string" && raw[field].trim() === ""),
  );
  if (missing) return { ok: false, message: REQUIRED_FIELDS_MESSAGE };
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]!.message };
  if (!isWellFormedSlug(parsed.data.slug)) return { ok: false, message: MALFORMED_SLUG_MESSAGE };
  if (RESERVED_SLUGS.includes(parsed.data.slug)) return { ok: false, message: reservedSlugMessage(parsed.data.slug) };
  return { ok: true, value: { ...parsed.data, title: parsed.data.title.trim(), excerpt: parsed.data.excerpt.trim() } };
}
