import { type Kysely } from "kysely";

/**
 * Which uploads each post uses (ADR 036): its header image and the images
 * its markdown names, kept with every write of a post, so an image no post
 * uses can be listed and deleted, and one a post uses cannot. The image's
 * key has no ON DELETE: deleting a used image fails in the database too,
 * whatever raced with it. Filled from the posts already there.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("image_references")
    .addColumn("post_id", "varchar(36)", (c) => c.notNull().references("posts.id").onDelete("cascade"))
    .addColumn("image_id", "varchar(64)", (c) => c.notNull().references("images.id"))
    .addPrimaryKeyConstraint("image_references_pk", ["post_id", "image_id"])
    .execute();
  await db.schema.createIndex("image_references_image_idx").on("image_references").column("image_id").execute();
  // The Images screen's order: newest upload first.
  await db.schema.createIndex("images_created_idx").on("images").columns(["created_at desc", "id"]).execute();
  await rebuildImageReferences(db as Kysely<TablesThen>);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("images_created_idx").execute();
  await db.schema.dropTable("image_references").execute();
}

/** The tables as they were at this migration: the columns its data fix reads and writes. */
interface TablesThen {
  posts: { id: string; header_image: string | null; content: string };
  images: { id: string };
  image_references: { post_id: string; image_id: string };
}

/** An upload's URL in a post's text, whichever of its variants: /images/{sha256}-{width}.webp. */
const IMAGE_URL_IN_TEXT = /\/images\/([0-9a-f]{64})-\d{1,5}\.webp/g;

/** The uploads a post uses: its header image and every upload URL in its markdown, each once. */
function imageIdsUsedBy(post: { headerImage: string | null; content: string }): string[] {
  const ids = new Set<string>();
  for (const text of [post.headerImage ?? "", post.content]) {
    for (const match of text.matchAll(IMAGE_URL_IN_TEXT)) {
      ids.add(match[1]!);
    }
  }
  return [...ids];
}

const REBUILD_POSTS = 100;

/**
 * Writes every reference from the posts' own text; only stored images are
 * referenced; posts are read 100 at a time. A frozen copy, with
 * imageIdsUsedBy, of rebuildImageReferences and imageIdsUsedBy as this
 * migration shipped (app/server/image-references.server.ts, app/lib/images.ts):
 * the migration does what it did whatever those become (ADR 050).
 */
async function rebuildImageReferences(writer: Kysely<TablesThen>): Promise<void> {
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
    const ids = [...new Set(wanted.map((row) => row.image_id))];
    const stored = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await writer
        .selectFrom("images")
        .select("id")
        .where("id", "in", ids.slice(i, i + 500))
        .execute();
      for (const row of rows) stored.add(row.id);
    }
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
