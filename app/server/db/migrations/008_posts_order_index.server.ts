import { type Kysely } from "kysely";

/**
 * The public list's order is (publish_date desc, id asc): with id in the
 * index, a neighbour of an article is one index step away and the count of
 * newer posts reads the index alone. It replaces (published, publish_date).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("posts_order_idx").on("posts").columns(["published", "publish_date", "id"]).execute();
  await db.schema.dropIndex("posts_public_idx").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("posts_public_idx").on("posts").columns(["published", "publish_date"]).execute();
  await db.schema.dropIndex("posts_order_idx").execute();
}
