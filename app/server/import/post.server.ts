import type { Transaction } from "kysely";
import { categoryHref } from "~/lib/categories";
import { slugify } from "~/lib/slug";
import type { Db } from "../db/db.server";
import type { Database } from "../db/schema.server";
import { createPost, MAX_POST_TEXT, parsePostInput } from "../posts/index.server";
import { importRedirect } from "../redirects/index.server";
import { convertBody, excerptOf, placeholder, textOf } from "./convert.server";
import { fetchImages, type ImageOutcome } from "./images.server";
import type { SourcePost } from "./source.server";
import { siteDate } from "../platform/clock.server";

/**
 * One source post made a post of this site (ADR 074): its body converted,
 * its images fetched and stored, then, in one transaction, the post, the
 * record of its source key (a second import finds it and adds nothing),
 * the redirects from its old addresses and the import's counts. A killed
 * process leaves either all of it or none of it.
 */

type Trx = Transaction<Database>;

/** What became of one source post, for the import's counts and report. */
export interface PostOutcome {
  result: "created" | "skipped" | "known";
  redirects: number;
  images: { fetched: number; failed: number };
  problems: string[];
  /** A post already here that this source post is (a restored site's, or one typed again). */
  postId?: string;
}

/** Counts written in the post's transaction (the import's row), so a resumed import counts each post once. */
type CountWriter = (trx: Trx, outcome: PostOutcome) => Promise<void>;

export interface ImportOptions {
  /** The run's: aborted at its time-out or when the process stops. */
  signal: AbortSignal;
  writeCounts: CountWriter;
  /** False once the site holds MAX_IMPORTED_REDIRECTS. */
  makeRedirects: boolean;
}

/** The post's transaction found its source key taken: another run imported it first. */
class AlreadyImported extends Error {}

/** The site's own pages: an old address there would hide them, so it is never redirected. */
const SITE_PAGES = new Set(["/home", "/blog", "/about", "/privacy", "/book", "/newsletter"]);
const isSiteAddress = (path: string) => SITE_PAGES.has(path.toLowerCase()) || path.toLowerCase().startsWith("/blog/");

const named = (post: SourcePost) => `“${post.title || post.slug || post.sourceKey}”`;

/** A slug of this site's rule that no post has, from the source's (or the title), with -2, -3... when taken. */
async function freeSlug(db: Db, post: SourcePost): Promise<string> {
  const base =
    slugify(post.slug).slice(0, 190).replace(/-$/, "") || slugify(post.title).slice(0, 190) || "imported-post";
  for (let n = 1; n < 1000; n++) {
    const slug = n === 1 && base !== "search" ? base : `${base}-${n}`;
    const taken = await db.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
    if (!taken) return slug;
  }
  return `${base}-${Date.now()}`;
}

const readTimeOf = (text: string) => `${Math.max(1, Math.round(text.split(" ").length / 200))} min read`;

/** The body with each image's URL: the stored upload's, or the old one when it could not be fetched. */
function withImages(markdown: string, images: string[], outcomes: Map<string, ImageOutcome>): string {
  let body = markdown;
  images.forEach((src, index) => {
    const outcome = outcomes.get(src);
    body = body.replaceAll(placeholder(index), (outcome?.url ?? src).replaceAll(" ", "%20").replaceAll(")", "%29"));
  });
  return body;
}

/**
 * A post already here with the source post's address and title: a site
 * restored from a backup (which leaves the import records out) or a post
 * the owner typed again. It is the same post, not a new one to make.
 */
async function samePost(db: Db, post: SourcePost): Promise<string | undefined> {
  const slug = slugify(post.slug) || slugify(post.title);
  if (slug === "") return undefined;
  const row = await db.selectFrom("posts").select(["id", "title"]).where("slug", "=", slug).executeTakeFirst();
  return row && row.title === post.title.trim() ? row.id : undefined;
}

/** Records that this import brought the source post as `postId`; false when a record was there already. */
async function recordItem(trx: Trx, importId: string, post: SourcePost, postId: string): Promise<boolean> {
  const recorded = await trx
    .insertInto("import_items")
    .values({ source_key: post.sourceKey, import_id: importId, post_id: postId, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("source_key").doNothing())
    .returning("source_key")
    .executeTakeFirst();
  return recorded !== undefined;
}

/** The import that brought this source post already, if one did. */
async function importedBy(db: Db, post: SourcePost): Promise<string | undefined> {
  const row = await db
    .selectFrom("import_items")
    .select("import_id")
    .where("source_key", "=", post.sourceKey)
    .executeTakeFirst();
  return row?.import_id;
}

/**
 * Imports one source post; never throws for a post's own problem (that is
 * reported), only for the database's. Undefined when there is nothing to
 * count: the run was stopped, or this import brought the post already (a
 * run that overlapped a killed one's), which counted it then.
 */
export async function importPost(
  db: Db,
  importId: string,
  post: SourcePost,
  options: ImportOptions,
): Promise<PostOutcome | undefined> {
  const { signal, writeCounts } = options;
  const skipped = (reason: string): PostOutcome => ({
    result: "skipped",
    redirects: 0,
    images: { fetched: 0, failed: 0 },
    problems: [`${named(post)} was not imported: ${reason}`],
  });
  const outcome = await (async (): Promise<PostOutcome | undefined> => {
    const by = await importedBy(db, post);
    if (by === importId) return undefined;
    if (by !== undefined) return { result: "known", redirects: 0, images: { fetched: 0, failed: 0 }, problems: [] };
    if (post.skip) return skipped(post.skip);
    const here = await samePost(db, post);
    if (here) return { result: "known", redirects: 0, images: { fetched: 0, failed: 0 }, problems: [], postId: here };
    return buildAndCreate(db, importId, post, options, skipped);
  })();
  if (signal.aborted || !outcome) return undefined;
  if (outcome.result !== "created")
    await db.transaction().execute(async (trx) => {
      if (outcome.postId) await recordItem(trx, importId, post, outcome.postId);
      await writeCounts(trx, outcome);
    });
  return outcome;
}

async function buildAndCreate(
  db: Db,
  importId: string,
  post: SourcePost,
  { signal, writeCounts, makeRedirects }: ImportOptions,
  skipped: (reason: string) => PostOutcome,
): Promise<PostOutcome | undefined> {
  const body = convertBody(post.html, post.siteUrl);
  const sources = post.featureImage ? [...body.images, post.featureImage.url] : body.images;
  const outcomes = await fetchImages(db, [...new Set(sources)], post.siteUrl, signal);
  if (signal.aborted) return skipped("the import stopped");
  const problems: string[] = [];
  const images = { fetched: 0, failed: 0 };
  for (const image of outcomes.values()) {
    if (image.ok) images.fetched++;
    else {
      images.failed++;
      problems.push(
        `${named(post)}: the image ${image.url.slice(0, 300)} was left at its old address: ${image.reason}`,
      );
    }
  }
  if (body.shortcodes.length > 0)
    problems.push(
      `${named(post)}: shortcodes kept as text, check them: ${body.shortcodes.map((s) => `[${s}]`).join(", ")}`,
    );
  if (body.dynamicBlocks.length > 0)
    problems.push(`${named(post)}: blocks the old site filled in were left out: ${body.dynamicBlocks.join(", ")}`);
  const content = withImages(body.markdown, body.images, outcomes) || textOf(post.title);
  if (content.length > MAX_POST_TEXT)
    return skipped(`its body is longer than ${MAX_POST_TEXT.toLocaleString("en-US")} characters once converted`);
  const text = textOf(post.html);
  const feature = post.featureImage ? outcomes.get(post.featureImage.url) : undefined;
  const parsed = parsePostInput({
    title: post.title.trim().slice(0, 300) || "Untitled",
    slug: await freeSlug(db, post),
    excerpt: excerptOf(textOf(post.excerpt) || text || post.title, 300) || "Imported post",
    content,
    category: post.category?.name.slice(0, 100) ?? "",
    author: post.author.slice(0, 200) || undefined,
    readTime: readTimeOf(text),
    published: post.state !== "draft",
    publishDate: post.publishDate ?? undefined,
    headerImage: feature?.ok ? feature.url : null,
    headerImageAlt: feature?.ok ? post.featureImage!.alt.slice(0, 200) || null : null,
  });
  if (!parsed.ok) return skipped(parsed.message);
  const input =
    post.state !== "draft" && !post.publishDate
      ? { ...parsed.value, publishDate: siteDate().toISOString() }
      : parsed.value;
  return createImported(db, importId, post, input, { images, problems }, { writeCounts, makeRedirects });
}

/** The post and its import records in one transaction; `known` when another run imported it first. */
async function createImported(
  db: Db,
  importId: string,
  post: SourcePost,
  input: Parameters<typeof createPost>[1],
  { images, problems }: Pick<PostOutcome, "images" | "problems">,
  { writeCounts, makeRedirects }: Pick<ImportOptions, "writeCounts" | "makeRedirects">,
): Promise<PostOutcome | undefined> {
  const outcome: PostOutcome = { result: "created", redirects: 0, images, problems };
  try {
    await createPost(db, input, {
      imported: true,
      alongside: async (trx, created) => {
        const recorded = await trx
          .insertInto("import_items")
          .values({
            source_key: post.sourceKey,
            import_id: importId,
            post_id: created.id,
            created_at: new Date().toISOString(),
          })
          .onConflict((oc) => oc.column("source_key").doNothing())
          .returning("source_key")
          .executeTakeFirst();
        if (!recorded) throw new AlreadyImported();
        if (makeRedirects) outcome.redirects = await oldAddresses(trx, post, created);
        await writeCounts(trx, outcome);
      },
    });
  } catch (error) {
    // Another run made it in the meantime, and counted it.
    if (error instanceof AlreadyImported) return undefined;
    throw error;
  }
  return outcome;
}

/** Redirects from the post's old addresses and its category's old archive; answers how many were made. */
async function oldAddresses(
  trx: Trx,
  post: SourcePost,
  created: { slug: string; categorySlug: string },
): Promise<number> {
  let made = 0;
  const to = `/blog/${created.slug}`;
  for (const from of post.oldPaths) if (!isSiteAddress(from) && (await importRedirect(trx, from, to))) made++;
  const oldCategory = post.category?.oldPath;
  if (oldCategory && created.categorySlug !== "" && !isSiteAddress(oldCategory))
    if (await importRedirect(trx, oldCategory, categoryHref(created.categorySlug))) made++;
  return made;
}
