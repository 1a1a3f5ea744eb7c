import type { Db } from "../db/db.server";

/**
 * The job kinds, schedules and flushers this process knows (ADR 067): an
 * in-process registry filled as the domains' modules load and their init()
 * runs. A worker claims only the kinds registered here, so a process that
 * does not know a kind (an older version during a rolling restart, a test's
 * worker) leaves its jobs to one that does.
 */

export interface JobContext {
  db: Db;
  /** This run's number, from 1. */
  attempt: number;
  /** After a failed run with attempt === maxAttempts the job is failed, not retried. */
  maxAttempts: number;
  jobId: string;
  /** When the job was enqueued (ISO 8601): for a schedule's job, its period's start, however late it runs. */
  enqueuedAt: string;
  /** Aborted at the kind's time-out and when the process stops before the job ends. */
  signal: AbortSignal;
}

export interface JobOptions {
  /** Runs in all, the first included (default 5). */
  maxAttempts?: number;
  /** Wait after failed run 1, 2, ...; the last value repeats. Jitter is added, JOB_DELAY_SCALE applies. */
  retryDelaysMs?: number[];
  /** A run longer than this is aborted and counts as failed (default 60 s); the lease is this plus LEASE_GRACE_MS. */
  timeoutMs?: number;
}

export interface JobKind<P> {
  readonly kind: string;
  /** Never read: it carries the payload's type from defineJob to enqueue. */
  readonly payloadType?: P;
}

export interface RegisteredKind {
  kind: string;
  handler: (payload: unknown, ctx: JobContext) => Promise<void>;
  maxAttempts: number;
  retryDelaysMs: number[];
  timeoutMs: number;
}

const DEFAULT_MAX_ATTEMPTS = 5;
/** 10 s, 1 min, 5 min, 30 min: roughly exponential, ending well within a day. */
const DEFAULT_RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000];
const DEFAULT_TIMEOUT_MS = 60_000;
/** A kind's name: what the Activity screen shows and the claim filters on. */
const KIND_NAME = /^[a-z][\d.a-z-]{0,59}$/;

const kinds = new Map<string, RegisteredKind>();

/**
 * Registers a kind of job and answers the handle enqueue takes. Defining a
 * kind again (a module loaded again in development) replaces its handler.
 * Handlers run at least once per job and must be idempotent (ADR 067).
 */
export function defineJob<P>(
  kind: string,
  handler: (payload: P, ctx: JobContext) => Promise<void>,
  options: JobOptions = {},
): JobKind<P> {
  if (!KIND_NAME.test(kind)) throw new Error(`job kind ${kind} must be lower-case letters, digits, dots and dashes`);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`${kind}: maxAttempts must be 1 or more`);
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (retryDelaysMs.length === 0) throw new Error(`${kind}: retryDelaysMs must not be empty`);
  kinds.set(kind, {
    kind,
    handler: handler as RegisteredKind["handler"],
    maxAttempts,
    retryDelaysMs,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  return { kind };
}

export function registeredKind(kind: string): RegisteredKind | undefined {
  return kinds.get(kind);
}

export function registeredKinds(): RegisteredKind[] {
  return [...kinds.values()];
}

export interface Schedule {
  name: string;
  everyMs: number;
  kind: JobKind<Record<string, never>>;
}

const schedules = new Map<string, Schedule>();

/**
 * Recurring work: one job of `kind` every `everyMs`, enqueued by whichever
 * process claims the schedule's row first (schedules.server.ts), so it runs
 * once per period however many processes run.
 */
export function defineSchedule(name: string, everyMs: number, kind: JobKind<Record<string, never>>): void {
  if (!KIND_NAME.test(name)) throw new Error(`schedule ${name} must be lower-case letters, digits, dots and dashes`);
  if (!(everyMs >= 1000)) throw new Error(`schedule ${name}: at most once a second`);
  schedules.set(name, { name, everyMs, kind });
}

export function registeredSchedules(): Schedule[] {
  return [...schedules.values()];
}

export interface Flusher {
  name: string;
  everyMs: number;
  flush: () => Promise<void>;
}

const flushers = new Map<string, Flusher>();

/**
 * A per-process batch writer (the analytics' counts, the not-found log):
 * what it writes is counted in this process's memory, bounded by its owner,
 * written every `everyMs` and once more at shutdown. Not a durable job: a
 * process killed outright loses its last few seconds, by design (ADR 067).
 */
export function defineFlusher(name: string, everyMs: number, flush: () => Promise<void>): void {
  flushers.set(name, { name, everyMs, flush });
}

export function registeredFlushers(): Flusher[] {
  return [...flushers.values()];
}
