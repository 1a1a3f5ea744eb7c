import { type Kysely } from "kysely";

/**
 * The owner's site settings (ADR 034): one row, id 1, written at first
 * start from the environment (COMPANY_NAME, CONTACT_EMAIL, ...), then only
 * by the admin's Settings screen. Null means "not set": shown nowhere.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("site_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("company_name", "text", (c) => c.notNull())
    .addColumn("contact_email", "varchar(320)")
    .addColumn("contact_phone", "varchar(40)")
    .addColumn("location", "text")
    .addColumn("facebook_url", "text")
    .addColumn("instagram_url", "text")
    .addColumn("linkedin_url", "text")
    .addColumn("meta_description", "text")
    .addColumn("notify_email", "varchar(320)")
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("site_settings").execute();
}
