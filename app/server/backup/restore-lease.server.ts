import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { Connection, Db } from "../db/db.server";
import { getLogger } from "../platform/logger.server";

/**
 * One restore from the admin at a time, whichever process gets it (ADR 078),
 * and the file it restores from: a lease is the lock and a temporary file
 * in the data folder, and ending it removes both whatever happened.
 *
 * The lock is PostgreSQL's session advisory lock on a connection held for
 * the lease (a process that dies loses its connection, so its lock goes
 * with it); on SQLite, whose processes all share one machine and folder, a
 * lock file that its holder touches while it lives.
 */

/** The PostgreSQL advisory lock of "one restore at a time" (the import's is 580_074). */
const RESTORE_LOCK = 580_078;
const LOCK_FILE = "restore.lock";
/** A lock file not touched for this long was left by a process that died. */
const LOCK_FILE_STALE_MS = 2 * 60_000;
const LOCK_FILE_TOUCH_MS = 20_000;
const TEMP_PREFIX = "restore-";
const TEMP_SUFFIX = ".tar.partial";

export interface RestoreLease {
  /** The temporary file the backup is written to (mode 0600), absent until written. */
  file: string;
  /** Removes the file and releases the lock; never throws. */
  end(): Promise<void>;
}

/** Held by this process: a second request here is refused without asking the database. */
let heldHere = false;

/** A lease, or undefined when another restore holds the lock. */
export async function takeRestoreLease(connection: Connection, dataDir: string): Promise<RestoreLease | undefined> {
  if (heldHere) return undefined;
  heldHere = true;
  let release: (() => Promise<void>) | undefined;
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    release =
      connection.kind === "postgres"
        ? await holdAdvisoryLock(connection.db)
        : holdLockFile(path.join(dataDir, LOCK_FILE));
  } finally {
    if (!release) heldHere = false;
  }
  if (!release) return undefined;
  removeLeftovers(dataDir);
  const file = path.join(dataDir, `${TEMP_PREFIX}${randomUUID()}${TEMP_SUFFIX}`);
  let ended = false;
  return {
    file,
    async end() {
      if (ended) return;
      ended = true;
      fs.rmSync(file, { force: true });
      await release();
      heldHere = false;
    },
  };
}

/** Files of a restore that never ended (its process died): nobody else writes them while the lock is held. */
function removeLeftovers(dataDir: string): void {
  for (const name of fs.readdirSync(dataDir)) {
    if (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX))
      fs.rmSync(path.join(dataDir, name), { force: true });
  }
}

/** Takes the lock on a connection of its own, held until the answer's release is called. */
async function holdAdvisoryLock(db: Db): Promise<(() => Promise<void>) | undefined> {
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let answer!: (locked: boolean) => void;
  const locked = new Promise<boolean>((resolve) => (answer = resolve));
  const held = db
    .connection()
    .execute(async (conn) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${RESTORE_LOCK}) as locked`.execute(
        conn,
      );
      answer(rows[0]?.locked === true);
      if (rows[0]?.locked !== true) return;
      await released;
      await sql`select pg_advisory_unlock(${RESTORE_LOCK})`.execute(conn);
    })
    .catch((error: unknown) => {
      // Before the answer: the request fails as any query's would. After: the lock went with its connection.
      answer(false);
      getLogger().warn({ err: error }, "restore lock: its connection failed");
      throw error;
    });
  if (!(await locked)) {
    await held;
    return undefined;
  }
  return async () => {
    letGo();
    await held.catch(() => {});
  };
}

/** Creates the lock file, or takes over one its holder stopped touching. */
function holdLockFile(file: string): (() => Promise<void>) | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      const touch = setInterval(() => {
        const now = new Date();
        fs.utimes(file, now, now, () => {});
      }, LOCK_FILE_TOUCH_MS);
      touch.unref();
      return () => {
        clearInterval(touch);
        fs.rmSync(file, { force: true });
        return Promise.resolve();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let age: number;
    try {
      age = Date.now() - fs.statSync(file).mtimeMs;
    } catch {
      continue; // Removed meanwhile: try again.
    }
    if (age < LOCK_FILE_STALE_MS) return undefined;
    getLogger().warn({ file }, "restore lock: removing a lock file left by a process that stopped");
    fs.rmSync(file, { force: true });
  }
  return undefined;
}
