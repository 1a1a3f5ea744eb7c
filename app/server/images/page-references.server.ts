import type { Kysely, Transaction } from "kysely";
import { imageIdsIn } from "~/lib/images";
import { isForeignKeyViolation } from "../db/dialect.server";
import type { Database } from "../db/schema.server";
import { ImageMissingError, storedAmong } from "./image-references.server";

/**
 * Which uploads the editable pages use (ADR 053, as ADR 036 for posts): a
 * page's photos, in its published document or its draft, each a row of
 * `page_image_references`. The image's key has no ON DELETE, so an upload a
 * page shows, or is about to show, cannot be deleted from Admin > Images.
 */

type Writer = Kysely<Database> | Transaction<Database>;

/**
 * Brings a page's references in step with its documents (`texts`: the
 * published one and the draft, as JSON), inside the transaction that wrote
 * them. An upload that is not stored refuses the write unless the page named
 * it before (`previousTexts`), as a post's save does. Throws ImageMissingError.
 */
export async function referencePageImages(
  trx: Transaction<Database>,
  page: string,
  texts: readonly string[],
  previousTexts: readonly string[],
): Promise<void> {
  const ids = imageIdsIn(texts);
  const stored = await storedAmong(trx, ids);
  const had = new Set(imageIdsIn(previousTexts));
  const missing = ids.filter((id) => !stored.has(id) && !had.has(id));
  if (missing.length > 0) throw new ImageMissingError(missing, "page");
  const kept = ids.filter((id) => stored.has(id));
  let dropped = trx.deleteFrom("page_image_references").where("page", "=", page);
  if (kept.length > 0) dropped = dropped.where("image_id", "not in", kept);
  await dropped.execute();
  if (kept.length === 0) return;
  try {
    await trx
      .insertInto("page_image_references")
      .values(kept.map((image_id) => ({ page, image_id })))
      .onConflict((conflict) => conflict.columns(["page", "image_id"]).doNothing())
      .execute();
  } catch (error) {
    // PostgreSQL: the image was deleted after it was read above.
    if (isForeignKeyViolation(error)) throw new ImageMissingError(kept, "page");
    throw error;
  }
}

/** Rewrites every page's references from its documents (a restore: backups do not carry the table). */
export async function rebuildPageImageReferences(writer: Writer): Promise<void> {
  await writer.deleteFrom("page_image_references").execute();
  const documents = [
    ...(await writer.selectFrom("site_content").select(["name", "document"]).execute()),
    // The pages' shared drafts (ADR 064); a restore brings none, copy-database does.
    ...(await writer
      .selectFrom("document_drafts")
      .select(["document_id as name", "state as document"])
      .where("document_kind", "=", "page")
      .where("admin_id", "is", null)
      .execute()),
  ];
  const byPage = new Map<string, string[]>();
  for (const { name, document } of documents) byPage.set(name, [...(byPage.get(name) ?? []), document]);
  for (const [page, texts] of byPage) {
    const ids = imageIdsIn(texts);
    const stored = await storedAmong(writer, ids);
    const rows = ids.filter((id) => stored.has(id)).map((image_id) => ({ page, image_id }));
    if (rows.length > 0) await writer.insertInto("page_image_references").values(rows).execute();
  }
}
