import { type Kysely } from "kysely";

/**
 * Sessions also end after a day without a request (ADR 021). Sessions open
 * at the upgrade count as seen at that moment, so nobody is signed out by it.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "varchar(30)").execute();
  await db.updateTable("sessions").set({ last_seen_at: new Date().toISOString() }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
}
