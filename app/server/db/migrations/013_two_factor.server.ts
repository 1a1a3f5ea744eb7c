import { type Kysely } from "kysely";

/**
 * Two-factor sign-in and the Account screen's list of sessions (ADR 037).
 * On admin_users: the TOTP secret (encrypted or marked plain), a secret
 * being set up and not yet confirmed, when 2FA was turned on, the last
 * accepted time step (a code is accepted once), the recovery codes'
 * SHA-256 hashes (a JSON array; one is removed when used). On sessions:
 * the browser and address that signed in, for the list.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("admin_users").addColumn("totp_secret", "text").execute();
  await db.schema.alterTable("admin_users").addColumn("totp_pending_secret", "text").execute();
  await db.schema.alterTable("admin_users").addColumn("totp_enabled_at", "varchar(30)").execute();
  await db.schema.alterTable("admin_users").addColumn("totp_last_step", "integer").execute();
  await db.schema.alterTable("admin_users").addColumn("recovery_codes", "text").execute();
  await db.schema.alterTable("sessions").addColumn("user_agent", "varchar(300)").execute();
  await db.schema.alterTable("sessions").addColumn("ip_address", "varchar(64)").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["ip_address", "user_agent"]) {
    await db.schema.alterTable("sessions").dropColumn(column).execute();
  }
  for (const column of ["recovery_codes", "totp_last_step", "totp_enabled_at", "totp_pending_secret", "totp_secret"]) {
    await db.schema.alterTable("admin_users").dropColumn(column).execute();
  }
}
