import { type Kysely } from "kysely";

/**
 * Throttle keys are stored hashed (HMAC-SHA256 with a key the site keeps,
 * ADR 021 as amended): until now `rate_limits` held client addresses and
 * sign-in e-mails as they were, and rows whose window had ended were never
 * deleted. Every existing row is deleted: they are short-lived counters (15
 * minutes, an hour), and a row under its old key would never be read again.
 * The upgrade gives every address and account a fresh window, once.
 *
 * `throttle_secrets`: the hashing secret of a site with no key outside its
 * database (PostgreSQL without TOTP_ENCRYPTION_KEY), one row by name, made
 * by the first process that needs it.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("rate_limits").execute();
  await db.schema
    .createTable("throttle_secrets")
    .addColumn("name", "varchar(40)", (c) => c.primaryKey())
    .addColumn("secret", "varchar(64)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("throttle_secrets").execute();
}
