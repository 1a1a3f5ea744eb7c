import { type Kysely } from "kysely";

/**
 * More administrators and the audit log (ADR 038): a display name and the
 * last sign-in on each administrator, one-time invitations (stored hashed,
 * as the setup link), and the audit log, read newest first.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("admin_users").addColumn("name", "varchar(100)").execute();
  await db.schema.alterTable("admin_users").addColumn("last_sign_in_at", "varchar(30)").execute();

  await db.schema
    .createTable("admin_invites")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("email", "varchar(320)", (c) => c.notNull())
    .addColumn("invited_by", "varchar(320)", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
    .addColumn("accepted_at", "varchar(30)")
    .addColumn("revoked_at", "varchar(30)")
    .execute();
  await db.schema.createIndex("admin_invites_created_idx").on("admin_invites").column("created_at").execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("action", "varchar(40)", (c) => c.notNull())
    .addColumn("actor_id", "varchar(36)")
    .addColumn("actor_email", "varchar(320)")
    .addColumn("target", "varchar(300)")
    .addColumn("client_address", "varchar(64)")
    .addColumn("user_agent", "varchar(200)")
    .execute();
  // Newest first, whole or filtered by action or by administrator; pruning reads the first.
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_action_idx").on("audit_log").columns(["action", "created_at", "id"]).execute();
  await db.schema
    .createIndex("audit_log_actor_idx")
    .on("audit_log")
    .columns(["actor_id", "created_at", "id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  await db.schema.dropTable("admin_invites").execute();
  await db.schema.alterTable("admin_users").dropColumn("last_sign_in_at").execute();
  await db.schema.alterTable("admin_users").dropColumn("name").execute();
}
