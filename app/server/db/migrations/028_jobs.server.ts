import { type Kysely } from "kysely";

/**
 * Durable jobs and schedules (ADR 067): work the site does on its own time.
 *
 * `jobs`: one row per piece of work, claimed by a worker with a lease
 * (owner + until); `idempotency_key` is unique, so enqueueing the same work
 * twice (two requests, two processes) keeps one row. Dates are ISO strings,
 * as everywhere (ADR 003).
 *
 * `job_schedules`: one row per recurring job, its next run claimed by one
 * process with a conditional UPDATE.
 *
 * The contact notices still pending under the old retry loop (a due time on
 * the message) become jobs here, so none is lost by the upgrade; the kind and
 * payload are spelled as they were when this shipped.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("kind", "varchar(60)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "varchar(10)", (c) => c.notNull())
    .addColumn("run_at", "varchar(30)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("lease_owner", "varchar(60)")
    .addColumn("lease_until", "varchar(30)")
    .addColumn("last_error", "varchar(1000)")
    .addColumn("idempotency_key", "varchar(300)", (c) => c.unique())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();
  // Claiming (due queued jobs, expired leases), the Activity screen and pruning each read one of these.
  await db.schema.createIndex("jobs_due_idx").on("jobs").columns(["status", "run_at"]).execute();
  await db.schema.createIndex("jobs_lease_idx").on("jobs").columns(["status", "lease_until"]).execute();
  await db.schema.createIndex("jobs_finished_idx").on("jobs").columns(["status", "updated_at", "id"]).execute();

  await db.schema
    .createTable("job_schedules")
    .addColumn("name", "varchar(60)", (c) => c.primaryKey())
    .addColumn("next_run_at", "varchar(30)", (c) => c.notNull())
    .addColumn("last_run_at", "varchar(30)")
    .execute();

  const pending = await db
    .selectFrom("contact_messages")
    .select(["id", "notice_attempts", "notice_next_at"])
    .where("notice_status", "=", "pending")
    .execute();
  const now = new Date().toISOString();
  for (const row of pending as Array<{ id: string; notice_attempts: number; notice_next_at: string | null }>) {
    await db
      .insertInto("jobs")
      .values({
        id: crypto.randomUUID(),
        kind: "contact.notice",
        payload: JSON.stringify({ messageId: row.id }),
        status: "queued",
        run_at: row.notice_next_at ?? now,
        attempts: Number(row.notice_attempts),
        max_attempts: 6,
        idempotency_key: `contact.notice:${row.id}`,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_schedules").execute();
  await db.schema.dropTable("jobs").execute();
}
