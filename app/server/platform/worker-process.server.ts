import { Tinypool } from "tinypool";
import { getLogger } from "./logger.server";

/**
 * A child process for work that must share neither the site's event loop nor
 * its heap: the markdown renderer (ADR 039) and the share-card drawer
 * (ADR 073). Started when work is due and stopped once idle, with a capped
 * heap and none of the site's environment (no database address, no secrets).
 *
 * One job at a time, and a job's deadline counts that job alone (ADR 091).
 * Before each job the process answers a warm-up under a deadline of its own,
 * so a cold start (a new process loading its modules: 150 ms on an idle
 * machine, seconds on a loaded one) and the jobs queued before it are never
 * charged to the job: a post is not refused as "too long to render" because
 * the renderer had gone idle.
 *
 * A process that dies between jobs (killed, out of memory) is logged and
 * replaced by the next job's; one that cannot start at all fails that job
 * with WorkerStartError and the next job tries a new one.
 */

/** What a worker file answers at once, with nothing: its modules are loaded by then. */
export interface WarmUp {
  warmUp: true;
}
const WARM_UP: WarmUp = { warmUp: true };

/** An idle process stops after this long: the work is occasional. */
const IDLE_MS = 5_000;

/** The process could not start, or died before it answered its warm-up: not the job's fault. */
export class WorkerStartError extends Error {
  override name = "WorkerStartError";
}

export interface WorkerProcessOptions {
  /** A built worker whose default export takes a job (or a WarmUp) and answers it. */
  file: string;
  /** The process's V8 heap cap (its RSS stays around twice this at most). */
  heapMb: number;
  /** A process that cannot start and answer a warm-up in this long is given up. */
  startDeadlineMs?: number;
}

export class WorkerProcess {
  private pool: Tinypool | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WorkerProcessOptions) {}

  /**
   * The worker's answer to `job`, run after the jobs before it. Rejects with
   * an AbortError when it takes longer than `deadlineMs` (the process is then
   * killed, and the next job starts another), with WorkerStartError when the
   * process cannot start, and with the worker's own error otherwise.
   */
  run<T>(job: object, deadlineMs: number): Promise<T> {
    const answer = this.queue.then(() => this.runNow<T>(job, deadlineMs));
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  private async runNow<T>(job: object, deadlineMs: number): Promise<T> {
    const pool = (this.pool ??= this.start());
    try {
      await pool.run(WARM_UP, { signal: AbortSignal.timeout(this.options.startDeadlineMs ?? 60_000) });
    } catch (error) {
      // Stopped by close() (the site's shutdown) while it started: say so, or
      // the log of a job retried after a restart names a failure there was not.
      const stopped = this.pool !== pool;
      // A pool whose process failed to start starts no other: the next job gets a new pool.
      if (!stopped) this.pool = undefined;
      void pool.destroy().catch(() => undefined);
      throw new WorkerStartError(
        stopped ? "the worker process was stopped as it started" : "the worker process could not start",
        { cause: error },
      );
    }
    return (await pool.run(job, { signal: AbortSignal.timeout(deadlineMs) })) as T;
  }

  private start(): Tinypool {
    const pool = new Tinypool({
      filename: this.options.file,
      runtime: "child_process",
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      execArgv: [`--max-old-space-size=${this.options.heapMb}`, "--max-semi-space-size=2"],
      env: { MALLOC_ARENA_MAX: "2", NODE_ENV: "production" },
    });
    // A process that exits with no job of ours running is reported here; unheard, it would end the site's process.
    pool.on("error", (error: unknown) =>
      getLogger().warn({ err: error, file: this.options.file }, "worker process ended"),
    );
    return pool;
  }

  /** Stops the process (shutdown); a later run starts another. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
