import type { Kysely } from "kysely";

/**
 * Off-site backups' last attempt (ADR 076): one row, id 1, that the
 * backup job writes after each try and Settings and /healthz read. The
 * failure streak's mail is marked here too, so one failure streak sends one
 * e-mail whichever process runs the job. Left out of backups and copies:
 * it describes the running site's own uploads.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("backup_status")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("attempted_at", "varchar(30)", (c) => c.notNull())
    .addColumn("result", "varchar(10)", (c) => c.notNull())
    .addColumn("reason", "varchar(300)")
    .addColumn("object_key", "varchar(300)")
    .addColumn("byte_size", "bigint")
    .addColumn("last_ok_at", "varchar(30)")
    .addColumn("failing_since", "varchar(30)")
    .addColumn("failure_mailed", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
