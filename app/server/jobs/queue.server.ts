import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Selectable } from "kysely";
import type { Db } from "../db/db.server";
import { isPostgres } from "../db/dialect.server";
import type { Database, JobsTable } from "../db/schema.server";
import { registeredKind, type JobKind, type RegisteredKind } from "./registry.server";
import { siteNow } from "../platform/clock.server";

/**
 * The queue's rows (ADR 067): enqueueing (in the caller's transaction, so a
 * job exists exactly when the change that asked for it committed), claiming
 * due jobs with a lease, and recording how a run ended. Both backends run the
 * same statements but for the claim's row locks: PostgreSQL's
 * `FOR UPDATE SKIP LOCKED` lets workers claim side by side; SQLite's single
 * writer serializes the one UPDATE ... RETURNING.
 */

/** A database or a transaction on it: enqueue joins whatever the caller is in. */
export type Executor = Kysely<Database>;
export type JobRow = Selectable<JobsTable>;

/** The workers' fall-back poll: at most once a second (a due scheduled post shows within it). */
export const POLL_MS = 1000;
/** The channel PostgreSQL's NOTIFY wakes idle workers on. */
export const WAKE_CHANNEL = "ojai_jobs";
/** A dead process's job runs again this long after its time-out, or after twice a shorter time-out. */
const LEASE_GRACE_MS = 5_000;
const leaseMs = (timeoutMs: number) => timeoutMs + Math.min(LEASE_GRACE_MS, timeoutMs);
/** A payload is small: ids and a few fields, never a document. */
const MAX_PAYLOAD_CHARS = 64 * 1024;
const MAX_KEY_CHARS = 300;
const MAX_ERROR_CHARS = 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/** In-process listeners told when a job was enqueued here (SQLite has no NOTIFY). */
const localWakers = new Set<() => void>();
export function onLocalEnqueue(wake: () => void): () => void {
  localWakers.add(wake);
  return () => localWakers.delete(wake);
}

/** Whether the job enqueued with this idempotency key is still to run (queued, or running now). */
export async function isJobWaiting(db: Executor, idempotencyKey: string): Promise<boolean> {
  const row = await db
    .selectFrom("jobs")
    .select("status")
    .where("idempotency_key", "=", idempotencyKey)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Adds a job, in `db`'s transaction when it is one. With an idempotency key
 * already taken, nothing is added and the existing job's id comes back
 * (`created: false`): two parallel requests enqueue one job.
 */
export async function enqueue<P>(
  db: Executor,
  kind: JobKind<P>,
  payload: P,
  {
    runAt,
    idempotencyKey,
    at,
  }: {
    runAt?: Date;
    idempotencyKey?: string;
    /**
     * When the job counts as enqueued (its `enqueuedAt`), default now. A
     * schedule passes the time it ran for: a job that names its work by its
     * period (the off-site backup's object) must get that period, not the
     * next one, which the schedule's transaction may end in.
     */
    at?: number;
  } = {},
): Promise<{ id: string; created: boolean }> {
  const registered = registeredKind(kind.kind);
  if (!registered) throw new Error(`job kind ${kind.kind} is not defined`);
  const text = JSON.stringify(payload ?? null);
  if (text.length > MAX_PAYLOAD_CHARS) throw new Error(`${kind.kind}: payload over ${MAX_PAYLOAD_CHARS} characters`);
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_KEY_CHARS))
    throw new Error(`${kind.kind}: idempotency key must be 1 to ${MAX_KEY_CHARS} characters`);
  const now = at ?? siteNow();
  const id = randomUUID();
  const inserted = await db
    .insertInto("jobs")
    .values({
      id,
      kind: kind.kind,
      payload: text,
      status: "queued",
      run_at: iso(runAt?.getTime() ?? now),
      attempts: 0,
      max_attempts: registered.maxAttempts,
      idempotency_key: idempotencyKey ?? null,
      created_at: iso(now),
      updated_at: iso(now),
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const existing = await db
      .selectFrom("jobs")
      .select("id")
      .where("idempotency_key", "=", idempotencyKey!)
      .executeTakeFirstOrThrow();
    return { id: existing.id, created: false };
  }
  const dueAt = runAt?.getTime() ?? now;
  // Delivered when the transaction commits, and not at all if it rolls back.
  if (dueAt <= now && isPostgres(db)) await sql`select pg_notify(${WAKE_CHANNEL}, '')`.execute(db);
  wakeHereAt(dueAt);
  return { id, created: true };
}

/**
 * Wakes this process's workers when site time reaches `dueAt`, if that is
 * sooner than their next poll (a paced next step, a short retry), so the
 * job runs at its time and not up to a poll later. A timer can fire a
 * millisecond before Date.now() shows its delay gone (Node's timers run on
 * a coarser clock): the workers would find nothing due yet and sleep until
 * the poll, so it is armed again for what is left.
 */
export function wakeHereAt(dueAt: number): void {
  const waitMs = dueAt - siteNow();
  if (waitMs >= POLL_MS) return;
  if (waitMs > 0) {
    setTimeout(() => wakeHereAt(dueAt), waitMs).unref();
    return;
  }
  for (const wake of localWakers) wake();
}

/** Jobs of `kinds` that are due, or whose holder's lease ran out. */
function dueJobs(db: Db, kinds: string[], now: string) {
  return db
    .selectFrom("jobs")
    .where("kind", "in", kinds)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "queued"), eb("run_at", "<=", now)]),
        eb.and([eb("status", "=", "running"), eb("lease_until", "<", now)]),
      ]),
    );
}

/**
 * Claims up to `limit` due jobs for `owner`: marks them running with a lease
 * of their kind's time-out plus a grace, and counts the attempt. A cheap read
 * first, so an idle poll never takes SQLite's write lock.
 */
export async function claimJobs(db: Db, owner: string, kinds: RegisteredKind[], limit: number): Promise<JobRow[]> {
  if (kinds.length === 0 || limit <= 0) return [];
  const now = siteNow();
  const names = kinds.map((k) => k.kind);
  const any = await dueJobs(db, names, iso(now)).select("id").limit(1).executeTakeFirst();
  if (!any) return [];
  const leaseUntil = sql<string>`case ${sql.ref("kind")} ${sql.join(
    kinds.map((k) => sql`when ${k.kind} then ${iso(now + leaseMs(k.timeoutMs))}`),
    sql` `,
  )} end`;
  const postgres = isPostgres(db);
  const chosen = dueJobs(db, names, iso(now))
    .select("id")
    .orderBy("run_at")
    .limit(limit)
    .$if(postgres, (query) => query.forUpdate().skipLocked());
  return db
    .updateTable("jobs")
    .set((eb) => ({
      status: "running",
      lease_owner: owner,
      lease_until: leaseUntil,
      attempts: eb("attempts", "+", 1),
      updated_at: iso(now),
    }))
    .where("id", "in", chosen)
    .returningAll()
    .execute();
}

/** Marks a job this claim holds done. False when the claim was lost (its lease ran out and another took it). */
export async function completeJob(db: Db, job: JobRow): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({ status: "done", lease_owner: null, lease_until: null, updated_at: iso(siteNow()) })
    .where("id", "=", job.id)
    .where("lease_owner", "=", job.lease_owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The wait before run `attempt + 1`: the kind's delay for it, up to a fifth more at random, scaled. */
export function retryDelayMs(kind: Pick<RegisteredKind, "retryDelaysMs">, attempt: number, scale: number): number {
  const delays = kind.retryDelaysMs;
  const base = delays[Math.min(attempt, delays.length) - 1]!;
  return Math.round(base * (1 + Math.random() / 5) * scale);
}

/**
 * Records a failed run: queued again after the back-off, or failed for good
 * after its last attempt (kept, listed on the Activity screen, retryable).
 */
export async function failJob(
  db: Db,
  job: JobRow,
  kind: RegisteredKind | undefined,
  error: string,
  delayScale = 1,
): Promise<{ outcome: "retry" | "failed"; delayMs: number; runAt: number }> {
  const now = siteNow();
  const attempts = Number(job.attempts);
  const last = attempts >= Number(job.max_attempts) || !kind;
  const delay = last ? 0 : retryDelayMs(kind, attempts, delayScale);
  await db
    .updateTable("jobs")
    .set({
      status: last ? "failed" : "queued",
      run_at: iso(now + delay),
      lease_owner: null,
      lease_until: null,
      last_error: error.slice(0, MAX_ERROR_CHARS),
      updated_at: iso(now),
    })
    .where("id", "=", job.id)
    .where("lease_owner", "=", job.lease_owner)
    .execute();
  return { outcome: last ? "failed" : "retry", delayMs: delay, runAt: now + delay };
}

/**
 * Gives back jobs this process claimed but did not finish (shutdown): queued
 * again at once for another process, the interrupted run not counted.
 */
export async function releaseJobs(db: Db, jobs: JobRow[]): Promise<void> {
  for (const job of jobs) {
    await db
      .updateTable("jobs")
      .set((eb) => ({
        status: "queued",
        run_at: iso(siteNow()),
        attempts: eb("attempts", "-", 1),
        lease_owner: null,
        lease_until: null,
        updated_at: iso(siteNow()),
      }))
      .where("id", "=", job.id)
      .where("lease_owner", "=", job.lease_owner)
      .execute();
  }
}

/** Failed jobs kept at most, however many fail within their retention. */
export const FAILED_JOBS_KEPT = 1000;

/**
 * Keeps the table bounded: done jobs go `doneRetentionMs` after they ended,
 * failed ones after `failedRetentionMs`, and beyond the newest
 * FAILED_JOBS_KEPT. Answers how many went.
 */
export async function pruneJobs(
  db: Db,
  { doneRetentionMs, failedRetentionMs }: { doneRetentionMs: number; failedRetentionMs: number },
  now = Date.now(),
): Promise<number> {
  const done = await db
    .deleteFrom("jobs")
    .where("status", "=", "done")
    .where("updated_at", "<", iso(now - doneRetentionMs))
    .executeTakeFirst();
  const old = await db
    .deleteFrom("jobs")
    .where("status", "=", "failed")
    .where("updated_at", "<", iso(now - failedRetentionMs))
    .executeTakeFirst();
  const keptFrom = await db
    .selectFrom("jobs")
    .select(["updated_at", "id"])
    .where("status", "=", "failed")
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .offset(FAILED_JOBS_KEPT - 1)
    .limit(1)
    .executeTakeFirst();
  let over = 0;
  if (keptFrom) {
    const result = await db
      .deleteFrom("jobs")
      .where("status", "=", "failed")
      .where((eb) =>
        eb.or([
          eb("updated_at", "<", keptFrom.updated_at),
          eb.and([eb("updated_at", "=", keptFrom.updated_at), eb("id", "<", keptFrom.id)]),
        ]),
      )
      .executeTakeFirst();
    over = Number(result.numDeletedRows);
  }
  return Number(done.numDeletedRows) + Number(old.numDeletedRows) + over;
}
