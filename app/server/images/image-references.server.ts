import { sql, type Kysely, type Transaction } from "kysely";
import { PAGE_TITLES } from "~/content/pages";
import { imageIdsUsedBy, imageVariantPath, variantWidthsFor } from "~/lib/images";
import { isContentName } from "~/lib/site-content";
import type { Db } from "../db/db.server";
import { isForeignKeyViolation } from "../db/dialect.server";
import type { Database } from "../db/schema.server";
import { bumpContentVersion } from "../db/content-version.server";
import type { PageQuery } from "../platform/paging.server";

/**
 * Which uploads the posts use, and the images no post uses (ADR 036). A post
 * uses its header image and every /images/{id}-{width}.webp URL in its
 * markdown (imageIdsUsedBy); `image_references` holds one row per post and
 * upload, written in the same transaction as the post. The row's image key
 * has no ON DELETE, so the database itself refuses to delete an image a
 * post uses, whichever request got there first.
 */

type Writer = Kysely<Database> | Transaction<Database>;
type PostText = { headerImage: string | null; content: string };

/** 409: a post or a page names an upload that is not (or no longer) stored. */
export class ImageMissingError extends Error {
  constructor(
    readonly ids: string[],
    user: "post" | "page" = "post",
  ) {
    super(
      `This ${user} uses an uploaded image that was deleted (/images/${ids[0]!.slice(0, 12)}...): ` +
        `upload it again, or remove it from the ${user}`,
    );
  }
}

/**
 * Brings a post's references in step with what it now says, inside the
 * transaction that writes the post. An upload that is not stored refuses the
 * save, unless the post already named it before this save (`previous`): a
 * post may keep a URL it always had, but may not start using an image that
 * was just deleted. Throws ImageMissingError.
 */
export async function referencePostImages(
  trx: Transaction<Database>,
  postId: string,
  post: PostText,
  previous?: PostText,
): Promise<void> {
  const ids = imageIdsUsedBy(post);
  const stored = new Set(
    ids.length === 0
      ? []
      : (await trx.selectFrom("images").select("id").where("id", "in", ids).execute()).map((row) => row.id),
  );
  const had = new Set(previous ? imageIdsUsedBy(previous) : []);
  const missing = ids.filter((id) => !stored.has(id) && !had.has(id));
  if (missing.length > 0) throw new ImageMissingError(missing);

  const kept = ids.filter((id) => stored.has(id));
  let dropped = trx.deleteFrom("image_references").where("post_id", "=", postId);
  if (kept.length > 0) dropped = dropped.where("image_id", "not in", kept);
  await dropped.execute();
  if (kept.length === 0) return;
  try {
    await trx
      .insertInto("image_references")
      .values(kept.map((image_id) => ({ post_id: postId, image_id })))
      .onConflict((conflict) => conflict.columns(["post_id", "image_id"]).doNothing())
      .execute();
  } catch (error) {
    // PostgreSQL: the image was deleted after it was read above (ADR 036).
    if (isForeignKeyViolation(error)) throw new ImageMissingError(kept);
    throw error;
  }
}

const REBUILD_POSTS = 100;

/** Which of these uploads are stored, read 500 ids at a time. */
export async function storedAmong(writer: Writer, ids: string[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await writer
      .selectFrom("images")
      .select("id")
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
    for (const row of rows) stored.add(row.id);
  }
  return stored;
}

/**
 * Rewrites every reference from the posts' own text: migration 012 fills the
 * table with it and a restore rebuilds it (a backup does not carry the table).
 * Only stored images are referenced; posts are read 100 at a time.
 */
export async function rebuildImageReferences(writer: Writer): Promise<void> {
  await writer.deleteFrom("image_references").execute();
  let after = "";
  for (;;) {
    const posts = await writer
      .selectFrom("posts")
      .select(["id", "header_image", "content"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(REBUILD_POSTS)
      .execute();
    if (posts.length === 0) return;
    const wanted = posts.flatMap((post) =>
      imageIdsUsedBy({ headerImage: post.header_image, content: post.content }).map((image_id) => ({
        post_id: post.id,
        image_id,
      })),
    );
    const stored = await storedAmong(writer, [...new Set(wanted.map((row) => row.image_id))]);
    const rows = wanted.filter((row) => stored.has(row.image_id));
    for (let i = 0; i < rows.length; i += 200) {
      await writer
        .insertInto("image_references")
        .values(rows.slice(i, i + 200))
        .execute();
    }
    after = posts[posts.length - 1]!.id;
  }
}

/** The uploads a post uses that no other post uses. */
async function imagesOnlyUsedBy(trx: Transaction<Database>, postId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom("image_references as mine")
    .select("mine.image_id")
    .where("mine.post_id", "=", postId)
    .where(
      sql<boolean>`not exists (select 1 from image_references other
        where other.image_id = mine.image_id and other.post_id <> ${postId})`,
    )
    .execute();
  return rows.map((row) => row.image_id);
}

/**
 * Deletes a post's row and, with `deleteImages`, the uploads only it used,
 * in the caller's transaction. An image another post starts using meanwhile
 * is kept (PostgreSQL refuses its delete; a savepoint keeps the rest).
 * Answers undefined when there is no such post, else the images deleted.
 */
export async function deletePostRow(
  trx: Transaction<Database>,
  postId: string,
  { deleteImages = false }: { deleteImages?: boolean } = {},
): Promise<number | undefined> {
  const candidates = deleteImages ? await imagesOnlyUsedBy(trx, postId) : [];
  const result = await trx.deleteFrom("posts").where("id", "=", postId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return undefined;
  let deleted = 0;
  for (const id of candidates) {
    await sql`savepoint delete_image`.execute(trx);
    try {
      const gone = await trx
        .deleteFrom("images")
        .where("id", "=", id)
        .where(sql<boolean>`not exists (select 1 from image_references r where r.image_id = ${id})`)
        .executeTakeFirst();
      deleted += Number(gone.numDeletedRows);
      await sql`release savepoint delete_image`.execute(trx);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      await sql`rollback to savepoint delete_image`.execute(trx);
    }
  }
  return deleted;
}

/** An image on the Images screen and in GET /api/admin/images. */
export interface ImageListItem {
  id: string;
  /** The widest variant (what a post names). */
  url: string;
  /** The narrowest variant, for a thumbnail. */
  thumbnailUrl: string;
  width: number;
  height: number;
  /** The stored original plus every variant, in bytes. */
  bytes: number;
  createdAt: string;
  /** How many posts use it. */
  posts: number;
  /** How many editable pages use it (a team photo). */
  pages: number;
}

interface ImageListQuery extends PageQuery {
  /** Only images no post or page uses. */
  unused: boolean;
}

const unusedImage = sql<boolean>`not exists (select 1 from image_references r where r.image_id = i.id)
  and not exists (select 1 from page_image_references p where p.image_id = i.id)`;

/** One page of the uploads, newest first, and how many there are (paged as docs/product/contract.md#paged-lists). */
export async function listImages(
  db: Db,
  { limit, offset, unused }: ImageListQuery,
): Promise<{ images: ImageListItem[]; total: number }> {
  let page = db
    .selectFrom("images as i")
    .select([
      "i.id",
      "i.width",
      "i.height",
      "i.byte_size",
      "i.created_at",
      sql<number | string>`(select coalesce(sum(v.byte_size), 0) from image_variants v where v.image_id = i.id)`.as(
        "variant_bytes",
      ),
      sql<number | string>`(select count(*) from image_references r where r.image_id = i.id)`.as("posts"),
      sql<number | string>`(select count(*) from page_image_references p where p.image_id = i.id)`.as("pages"),
    ])
    .orderBy("i.created_at", "desc")
    .orderBy("i.id", "asc")
    .limit(limit)
    .offset(offset);
  let count = db.selectFrom("images as i").select((eb) => eb.fn.countAll<number | string>().as("count"));
  if (unused) {
    page = page.where(unusedImage);
    count = count.where(unusedImage);
  }
  const [rows, counted] = await Promise.all([page.execute(), count.executeTakeFirstOrThrow()]);
  return {
    images: rows.map((row) => {
      const widths = variantWidthsFor(row.width);
      return {
        id: row.id,
        url: imageVariantPath(row.id, widths[widths.length - 1]!),
        thumbnailUrl: imageVariantPath(row.id, widths[0]!),
        width: row.width,
        height: row.height,
        bytes: row.byte_size + Number(row.variant_bytes),
        createdAt: row.created_at,
        posts: Number(row.posts),
        pages: Number(row.pages),
      };
    }),
    total: Number(counted.count),
  };
}

const IMAGE_ID = /^[\da-f]{64}$/;

type ImageDeletion =
  { status: "deleted" } | { status: "missing" } | { status: "used"; posts: number; titles: string[]; pages: string[] };

/** Who uses an upload: the posts (how many, the first three titles) and the editable pages. */
async function usedBy(reader: Writer, id: string): Promise<ImageDeletion> {
  const [rows, pages] = await Promise.all([
    reader
      .selectFrom("image_references as r")
      .innerJoin("posts as p", "p.id", "r.post_id")
      .select("p.title")
      .where("r.image_id", "=", id)
      .orderBy("p.title")
      .execute(),
    reader.selectFrom("page_image_references").select("page").where("image_id", "=", id).orderBy("page").execute(),
  ]);
  return {
    status: "used",
    posts: rows.length,
    titles: rows.slice(0, 3).map((row) => row.title),
    pages: pages.map((row) => row.page),
  };
}

/**
 * Deletes an upload no post or page uses, its variants with it. The check
 * and the delete are one transaction; on PostgreSQL a reference written
 * meanwhile by a post's or a page's save makes the delete itself fail (the
 * keys have no ON DELETE), and SQLite runs one writing transaction at a time.
 * Bumps the content version, so no page cache keeps answering the image's URLs.
 */
export async function deleteImage(db: Db, id: string): Promise<ImageDeletion> {
  if (!IMAGE_ID.test(id)) return { status: "missing" };
  try {
    return await db.transaction().execute(async (trx): Promise<ImageDeletion> => {
      const image = await trx.selectFrom("images").select("id").where("id", "=", id).executeTakeFirst();
      if (!image) return { status: "missing" };
      const used = await usedBy(trx, id);
      if (used.status === "used" && (used.posts > 0 || used.pages.length > 0)) return used;
      await trx.deleteFrom("images").where("id", "=", id).execute();
      await bumpContentVersion(trx);
      return { status: "deleted" };
    });
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    return usedBy(db, id);
  }
}

/** The 409's message: which posts and pages use the image. */
export function describeUse(deletion: { posts: number; titles: string[]; pages: string[] }): string {
  const users: string[] = [];
  if (deletion.posts > 0) {
    const named = deletion.titles.map((title) => `"${title}"`).join(", ");
    const more = deletion.posts > deletion.titles.length ? ` and ${deletion.posts - deletion.titles.length} more` : "";
    users.push(`${deletion.posts === 1 ? "the post" : `${deletion.posts} posts:`} ${named}${more}`);
  }
  for (const page of deletion.pages) users.push(`the ${pageTitle(page)}`);
  const one = users.length === 1 && deletion.posts <= 1;
  const that = deletion.posts === 1 ? "that post" : "that page";
  return `This image is used by ${users.join(" and ")}; remove it from ${one ? that : "them"} first`;
}

function pageTitle(page: string): string {
  return isContentName(page) ? PAGE_TITLES[page] : `${page} page`;
}
