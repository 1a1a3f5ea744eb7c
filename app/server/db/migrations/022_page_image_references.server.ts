import { type Kysely } from "kysely";

/**
 * Which uploads the editable pages use (ADR 053, ADR 036): a team member's
 * photo in a page's published document or its draft. As with posts, the
 * image's key has no ON DELETE, so an upload a page shows cannot be deleted,
 * whatever raced with it. Filled from the documents already there.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("page_image_references")
    .addColumn("page", "varchar(40)", (c) => c.notNull())
    .addColumn("image_id", "varchar(64)", (c) => c.notNull().references("images.id"))
    .addPrimaryKeyConstraint("page_image_references_pk", ["page", "image_id"])
    .execute();
  await db.schema
    .createIndex("page_image_references_image_idx")
    .on("page_image_references")
    .column("image_id")
    .execute();
  await fillFromDocuments(db as Kysely<TablesThen>);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("page_image_references").execute();
}

/** The tables as they were at this migration: the columns its data fix reads and writes. */
interface TablesThen {
  site_content: { name: string; document: string };
  site_content_drafts: { name: string; document: string };
  images: { id: string };
  page_image_references: { page: string; image_id: string };
}

/** An upload's URL, whichever of its variants: /images/{sha256}-{width}.webp. */
const IMAGE_URL_IN_TEXT = /\/images\/([0-9a-f]{64})-\d{1,5}\.webp/g;

/**
 * One row per page and stored upload its published document or draft names.
 * A frozen copy of what the site-content domain did when this shipped (ADR
 * 050); there are at most a handful of pages, each one document and one draft.
 */
async function fillFromDocuments(db: Kysely<TablesThen>): Promise<void> {
  const documents = [
    ...(await db.selectFrom("site_content").select(["name", "document"]).execute()),
    ...(await db.selectFrom("site_content_drafts").select(["name", "document"]).execute()),
  ];
  const wanted = new Map<string, { page: string; image_id: string }>();
  for (const { name, document } of documents) {
    for (const match of document.matchAll(IMAGE_URL_IN_TEXT)) {
      wanted.set(`${name} ${match[1]}`, { page: name, image_id: match[1]! });
    }
  }
  for (const row of wanted.values()) {
    const stored = await db.selectFrom("images").select("id").where("id", "=", row.image_id).executeTakeFirst();
    if (stored) await db.insertInto("page_image_references").values(row).execute();
  }
}
