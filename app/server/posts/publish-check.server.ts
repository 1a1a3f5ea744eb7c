import { z } from "zod";
import { parseImageVariantPath, variantWidthsFor } from "~/lib/images";
import { RESERVED_SLUGS } from "~/lib/post-rules";
import { MAX_CHECKED_REFERENCES, type PublishCheck, type PublishProblem } from "~/lib/publish-check";
import type { Db } from "../db/db.server";
import { storedImageSizes } from "../images/index.server";
import { redirectsFrom } from "../redirects/index.server";
import { markdownReferencesSafely } from "./markdown.server";
import type { MarkdownReference } from "./markdown-references.server";
import { MAX_POST_TEXT } from "./post-input.server";

/**
 * The check before publishing (ADR 057): what in a post's body would greet
 * its readers broken. Images without alt text (not marked decorative),
 * links to /blog/{slug} where no post answers, or a draft, or a post that
 * goes live after this one, and links or images to /images/... that name no
 * stored upload. The editor asks before a save that publishes or schedules;
 * the writer may publish anyway, so nothing here refuses a save.
 */

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max, { error: `${field} is too long (${max} characters at most)` })
    .nullish();

const checkInputSchema = z.object({
  content: z
    .string({ error: "content must be text" })
    .max(MAX_POST_TEXT, { error: `content is too long (${MAX_POST_TEXT.toLocaleString("en-US")} characters at most)` }),
  publishDate: optionalText("publishDate", 100).refine((v) => !v || !Number.isNaN(Date.parse(v)), {
    error: "publishDate must be an ISO 8601 date-time",
  }),
  slug: optionalText("slug", 200),
  id: optionalText("id", 100),
});

export type PublishCheckInput = z.output<typeof checkInputSchema>;

/** POST /api/admin/posts/check's body: the draft's content, publish date, slug and id (the last three optional). */
export function parsePublishCheckInput(
  body: unknown,
): { ok: true; value: PublishCheckInput } | { ok: false; message: string } {
  const parsed = checkInputSchema.safeParse(body);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]!.message };
  return { ok: true, value: parsed.data };
}

/** A post's own path; the slug is one segment (the blog's other pages have two, or are reserved). */
const POST_PATH = /^\/blog\/([^/]+)\/?$/;

type SiteTarget = { kind: "post"; slug: string } | { kind: "image"; path: string };

/** What a link or image on this site points at, if it is a post or an upload; other addresses are not checked. */
function siteTarget(url: string, base: URL, origins: ReadonlySet<string>): SiteTarget | undefined {
  if (url === "" || url.startsWith("#")) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(url, base);
  } catch {
    return undefined;
  }
  if (!origins.has(resolved.origin)) return undefined;
  if (resolved.pathname.startsWith("/images/")) return { kind: "image", path: resolved.pathname };
  const match = POST_PATH.exec(resolved.pathname);
  if (!match) return undefined;
  let slug = match[1]!;
  try {
    slug = decodeURIComponent(slug);
  } catch {
    // Not valid percent-encoding: no post has that slug; checked as written.
  }
  return RESERVED_SLUGS.includes(slug) ? undefined : { kind: "post", slug };
}

interface PostState {
  id: string;
  published: boolean;
  publishDate: string;
}

async function postsBySlug(db: Db, slugs: string[]): Promise<Map<string, PostState>> {
  const posts = new Map<string, PostState>();
  for (let i = 0; i < slugs.length; i += 500) {
    const rows = await db
      .selectFrom("posts")
      .select(["id", "slug", "published", "publish_date"])
      .where("slug", "in", slugs.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      posts.set(row.slug, { id: row.id, published: Boolean(row.published), publishDate: row.publish_date });
    }
  }
  return posts;
}

/**
 * The state of each linked slug: its post, or the post a redirect from its
 * old address leads to (a renamed post's links keep working, ADR 054);
 * "elsewhere" for a redirect to anything but a post; absent when nothing answers.
 */
async function linkedPosts(db: Db, slugs: string[]): Promise<Map<string, PostState | "elsewhere">> {
  const found = new Map<string, PostState | "elsewhere">(await postsBySlug(db, slugs));
  const unknown = slugs.filter((slug) => !found.has(slug));
  if (unknown.length === 0) return found;
  const redirects = await redirectsFrom(
    db,
    unknown.map((slug) => `/blog/${slug}`),
  );
  const movedTo = new Map<string, string>();
  for (const slug of unknown) {
    const to = redirects.get(`/blog/${slug}`);
    if (to === undefined) continue;
    const target = to === null ? undefined : POST_PATH.exec(to)?.[1];
    if (target === undefined) found.set(slug, "elsewhere");
    else movedTo.set(slug, target);
  }
  const targets = await postsBySlug(db, [...new Set(movedTo.values())]);
  for (const [slug, target] of movedTo) {
    const post = targets.get(target);
    if (post) found.set(slug, post);
  }
  return found;
}

/** Whether /images/{id}-{width}.webp names a stored upload and one of its stored widths. */
async function storedImagePaths(db: Db, paths: string[]): Promise<Set<string>> {
  const parsed = paths.map((path) => ({ path, upload: parseImageVariantPath(path) }));
  const ids = [...new Set(parsed.flatMap(({ upload }) => (upload ? [upload.id] : [])))];
  const sizes = ids.length > 0 ? await storedImageSizes(db, ids) : {};
  const stored = new Set<string>();
  for (const { path, upload } of parsed) {
    const size = upload && sizes[upload.id];
    if (upload && size && variantWidthsFor(size.width).includes(upload.width)) stored.add(path);
  }
  return stored;
}

type Located = { reference: MarkdownReference; target: SiteTarget };

function postProblem(
  { reference, target }: Located & { target: { kind: "post" } },
  state: PostState | "elsewhere" | undefined,
  self: { id?: string | null; slug?: string | null },
  goesLive: number,
): PublishProblem | undefined {
  const where = { start: reference.start, end: reference.end, url: reference.url, slug: target.slug };
  if (target.slug === self.slug || state === "elsewhere") return undefined;
  if (state === undefined) return { kind: "unknown-post", ...where };
  if (state.id === self.id) return undefined;
  if (!state.published) return { kind: "draft-post", ...where };
  if (Date.parse(state.publishDate) > goesLive) return { kind: "later-post", ...where, publishDate: state.publishDate };
  return undefined;
}

/**
 * Checks a post's body before it is published. `origins`: the origins that
 * are this site (its configured address, the one the admin uses), so that an
 * absolute link to this site counts as one of its own. Reads the first
 * MAX_CHECKED_REFERENCES links and images (`more` says when there were more).
 */
export async function checkBeforePublishing(
  db: Db,
  input: PublishCheckInput,
  { origins, now = Date.now() }: { origins: string[]; now?: number },
): Promise<PublishCheck> {
  const { references, more } = await markdownReferencesSafely(input.content, MAX_CHECKED_REFERENCES);
  const site = new Set(origins);
  const base = new URL(`/blog/${encodeURIComponent(input.slug ?? "")}`, origins[0]);
  const located: Located[] = [];
  for (const reference of references) {
    const target = siteTarget(reference.url, base, site);
    if (target) located.push({ reference, target });
  }
  const slugs = [...new Set(located.flatMap(({ target }) => (target.kind === "post" ? [target.slug] : [])))];
  const images = [...new Set(located.flatMap(({ target }) => (target.kind === "image" ? [target.path] : [])))];
  const [posts, storedImages] = await Promise.all([linkedPosts(db, slugs), storedImagePaths(db, images)]);
  // This post goes live at its publish date, or now if that has passed.
  const goesLive = Math.max(now, input.publishDate ? Date.parse(input.publishDate) : now);

  const problems: PublishProblem[] = [];
  for (const reference of references) {
    if (reference.missingAlt) {
      problems.push({ kind: "image-without-alt", start: reference.start, end: reference.end, url: reference.url });
    }
  }
  for (const item of located) {
    const { reference, target } = item;
    if (target.kind === "image") {
      if (!storedImages.has(target.path)) {
        problems.push({ kind: "missing-image", start: reference.start, end: reference.end, url: reference.url });
      }
      continue;
    }
    const problem = postProblem({ reference, target }, posts.get(target.slug), input, goesLive);
    if (problem) problems.push(problem);
  }
  problems.sort((a, b) => a.start - b.start);
  return { problems, more };
}
