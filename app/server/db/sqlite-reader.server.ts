import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";
import type { CompiledQuery } from "kysely";

/**
 * Reads of a SQLite database on a worker thread with a read-only connection
 * of its own, for the few queries whose CPU time grows with the data: the
 * blog search ranks every post that matches (ADR 048: 35 ms for a word in
 * each of 10,000 posts, over 200 ms for ten such words). better-sqlite3 runs
 * a statement synchronously on the thread that calls it, so on the app's own
 * connection that time was the event loop's, and no page was answered
 * meanwhile. The worker's statements queue behind each other: one thread,
 * at most one core, whatever arrives.
 *
 * The thread starts on the first read (about 17 MB while it lives) and stops
 * after IDLE_MS without one. A read that runs past `deadlineMs` (counted from
 * when the thread has opened the file: loading the driver and opening the
 * database on a new thread are not the read, and take over 100 ms on a busy
 * machine) fails, with every read
 * waiting on it, with a ReaderDeadlineError, and the thread is terminated.
 * Termination cannot stop SQLite inside a statement (better-sqlite3 offers no
 * interrupt): the thread ends when that statement does, and until then reads
 * are refused at once with a ReaderDeadlineError rather than given a second
 * thread (ADR 090): still at most one core. Over WAL a reader sees every
 * transaction committed before its statement began, as a second process would.
 */

/** How long the thread is kept without reads. */
const IDLE_MS = 30_000;
/** The thread's JavaScript heap: it holds rows, not data sets. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 };
/** Statements each thread keeps prepared. */
const KEPT_STATEMENTS = 64;

/**
 * The thread's code. A script (`eval`), not a module file, so that the same
 * code runs in the built server, under Vitest and under tsx without a build
 * step of its own; it loads better-sqlite3 from the path the app resolved.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma("busy_timeout = 5000");
parentPort.postMessage({ ready: true });
const statements = new Map();
parentPort.on("message", ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size < ${KEPT_STATEMENTS}) statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

export class ReaderDeadlineError extends Error {
  override name = "ReaderDeadlineError";
}

type Reply = { id: number; rows: unknown[]; error?: undefined } | { id: number; error: string } | { ready: true };

interface Pending {
  /** The thread the read was sent to: only its end fails the read. */
  worker: Worker;
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

export class SqliteReader {
  private worker: Worker | undefined;
  /** Settles once `worker` has opened the file: its deadlines run from then. */
  private ready: Promise<void> = Promise.resolve();
  /** A thread given up on past a deadline, still in its statement: no other starts meanwhile. */
  private ending: Promise<unknown> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly deadlineMs = 10_000,
  ) {}

  /** The rows of a compiled SELECT (kysely's `sql\`...\`.compile(db)`), read on the worker thread. */
  all<Row>(query: CompiledQuery): Promise<Row[]> {
    if (this.ending) {
      return Promise.reject(new ReaderDeadlineError("a read past its deadline is still running"));
    }
    const worker = this.running();
    const ready = this.ready;
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    return new Promise<Row[]>((resolve, reject) => {
      let deadline: NodeJS.Timeout | undefined;
      const startDeadline = () => {
        if (!this.pending.has(id)) return;
        deadline = setTimeout(() => this.giveUp(worker), this.deadlineMs);
      };
      const settle = () => {
        clearTimeout(deadline);
        this.pending.delete(id);
        if (this.pending.size === 0) this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
      };
      this.pending.set(id, {
        worker,
        resolve: (rows) => {
          settle();
          resolve(rows as Row[]);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      void ready.then(startDeadline);
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  /** Ends the thread; reads still waiting on it fail. Resolves once a thread past its deadline has ended too. */
  async close(): Promise<void> {
    await this.stop(new Error("the reader was closed"));
    await this.ending;
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { file: this.file, driver: createRequire(import.meta.url).resolve("better-sqlite3") },
      resourceLimits: RESOURCE_LIMITS,
    });
    // The thread never keeps the process alive: a server that is done exits.
    worker.unref();
    let opened = () => {};
    this.ready = new Promise<void>((resolve) => (opened = resolve));
    worker.on("message", (reply: Reply) => {
      if ("ready" in reply) return opened();
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      if (reply.error !== undefined) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.rows);
    });
    // An error the thread did not catch (it could not open the file, or ran out of heap) ends it.
    worker.on("error", (error) => this.failAll(worker, error));
    worker.on("exit", () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(worker, new Error("the reader's thread ended"));
    });
    this.worker = worker;
    return worker;
  }

  /** Fails the reads sent to `worker`. */
  private failAll(worker: Worker, error: Error) {
    for (const waiting of [...this.pending.values()]) if (waiting.worker === worker) waiting.reject(error);
  }

  /** A read on `worker` passed its deadline: its reads fail, and no read starts until it has ended. */
  private giveUp(worker: Worker) {
    if (this.worker !== worker) return;
    const ending = this.stop(new ReaderDeadlineError(`a read took longer than ${this.deadlineMs} ms`));
    this.ending = ending;
    void ending.finally(() => {
      if (this.ending === ending) this.ending = undefined;
    });
  }

  private async stop(error?: Error) {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    if (error) this.failAll(worker, error);
    await worker.terminate();
  }
}

const readers = new WeakMap<SqliteDatabase.Database, SqliteReader>();

/** The reader of a SQLite connection's file (one per connection; its thread starts on the first read). */
export function sqliteReaderOf(sqlite: SqliteDatabase.Database): SqliteReader {
  let reader = readers.get(sqlite);
  if (!reader) {
    reader = new SqliteReader(sqlite.name);
    readers.set(sqlite, reader);
  }
  return reader;
}

/** Ends the thread of a connection's reader, if it has one (the connection is closing). */
export async function closeSqliteReaderOf(sqlite: SqliteDatabase.Database): Promise<void> {
  await readers.get(sqlite)?.close();
}
