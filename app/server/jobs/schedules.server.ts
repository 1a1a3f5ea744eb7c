import type { Db } from "../db/db.server";
import { enqueue } from "./queue.server";
import type { Schedule } from "./registry.server";

/**
 * Recurring work, once per period across all processes (ADR 067). Each
 * schedule has a row with its next run; a process whose clock passes it
 * moves it on with one conditional UPDATE, and only the process whose UPDATE
 * changed the row enqueues the period's job, in the same transaction (keyed
 * by schedule and period besides), dated the time it ran for, not the time
 * the transaction ends. Between runs a process only compares its clock with
 * the time it last read: no query per tick. A new schedule runs at once,
 * then at the start of each period.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** Runs the schedule if it is due; answers when to look again (ms since the epoch). */
export async function runScheduleIfDue(db: Db, schedule: Schedule, now = Date.now()): Promise<number> {
  await db
    .insertInto("job_schedules")
    .values({ name: schedule.name, next_run_at: iso(now), last_run_at: null })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  // Aligned to whole periods since the epoch: a daily schedule runs just after midnight UTC, a 6-hourly one at 0, 6, 12 and 18.
  const next = iso((Math.floor(now / schedule.everyMs) + 1) * schedule.everyMs);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("job_schedules")
      .select("next_run_at")
      .where("name", "=", schedule.name)
      .executeTakeFirstOrThrow();
    // Due, or set further ahead than one period (the period was shortened since).
    if (row.next_run_at > iso(now) && row.next_run_at <= next) return Date.parse(row.next_run_at);
    const moved = await trx
      .updateTable("job_schedules")
      .set({ next_run_at: next, last_run_at: iso(now) })
      .where("name", "=", schedule.name)
      .where("next_run_at", "=", row.next_run_at)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1)
      await enqueue(
        trx,
        schedule.kind,
        {},
        { idempotencyKey: `schedule:${schedule.name}:${row.next_run_at}`, at: now },
      );
    return Date.parse(next);
  });
}
