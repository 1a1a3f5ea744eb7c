import { sql, type Transaction } from "kysely";
import { CONTENT_NAMES, type ContentName } from "~/lib/site-content";
import { isPostgres } from "../db/dialect.server";
import type { Database } from "../db/schema.server";
import { referencePageImages } from "../images/index.server";
import { readDraft } from "../versioning/index.server";

/**
 * A page's photos are uploads it uses (ADR 053, ADR 036): every write of its
 * published document or its draft brings `page_image_references` in step, in
 * the write's transaction, so Admin > Images cannot delete a photo the page
 * shows or its draft is about to show, and a page cannot start using an
 * upload that was just deleted.
 */

/** The first key of this site's PostgreSQL advisory locks: a page's image references. */
const PAGE_IMAGES_LOCK = 53;

async function pageTexts(trx: Transaction<Database>, name: ContentName): Promise<string[]> {
  const [published, draft] = await Promise.all([
    trx.selectFrom("site_content").select("document").where("name", "=", name).executeTakeFirst(),
    readDraft(trx, { kind: "page", id: name }, null),
  ]);
  return [published?.document ?? "", draft ? JSON.stringify(draft.state) : ""];
}

/**
 * Runs `write` (which changes the page's document or draft) and then brings
 * the page's image references in step with both. On PostgreSQL a publish and
 * a draft save of one page at once would each see the other's old document;
 * a lock per page, held to the transaction's end, puts them one after the other.
 */
export async function keepingPageImages<T>(
  trx: Transaction<Database>,
  name: ContentName,
  write: () => Promise<T>,
): Promise<T> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(${PAGE_IMAGES_LOCK}, ${CONTENT_NAMES.indexOf(name)})`.execute(trx);
  const before = await pageTexts(trx, name);
  const result = await write();
  await referencePageImages(trx, name, await pageTexts(trx, name), before);
  return result;
}
