import { type Kysely } from "kysely";

/**
 * Webhooks (issue 43, ADR 068).
 *
 * `webhooks`: one row per receiver: its URL, the events it is sent (a JSON
 * array of names), and its signing secret, sealed with the site's key
 * (AES-256-GCM, as the two-factor secrets are, ADR 047).
 *
 * `webhook_deliveries`: one row per message to one webhook: its id is the
 * `webhook-id` every attempt carries; the body (`payload`) is fixed when the
 * row is made, so a retry sends the same bytes. `event_id` with `webhook_id`
 * is unique, so an event handled twice makes one delivery per webhook (NULL
 * for tests and redeliveries of nothing, which never collide). Bounded by
 * age and by a number of rows per webhook (the index on webhook and time).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("url", "varchar(2048)", (c) => c.notNull())
    .addColumn("events", "varchar(500)", (c) => c.notNull())
    .addColumn("secret", "varchar(200)", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("webhook_id", "varchar(36)", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("event_id", "varchar(64)")
    .addColumn("event", "varchar(40)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "varchar(10)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("last_status_code", "integer")
    .addColumn("last_error", "varchar(300)")
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("last_attempt_at", "varchar(30)")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_webhook_idx")
    .on("webhook_deliveries")
    .columns(["webhook_id", "created_at"])
    .execute();
  await db.schema.createIndex("webhook_deliveries_created_idx").on("webhook_deliveries").column("created_at").execute();
  await db.schema
    .createIndex("webhook_deliveries_event_idx")
    .on("webhook_deliveries")
    .columns(["event_id", "webhook_id"])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhooks").execute();
}
