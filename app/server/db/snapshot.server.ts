import { sql } from "kysely";
import type { Connection, Db } from "./db.server";

/**
 * Runs several reads that must agree with each other on one snapshot of the
 * database: no write committed meanwhile, by any process, shows in some of
 * them and not in others.
 *
 * PostgreSQL: a read-only REPEATABLE READ transaction on one pooled client.
 * SQLite: a deferred transaction (WAL: a reader's snapshot, never the write
 * lock that the app's `begin immediate` transactions take) on the one
 * connection, held through Kysely so no other query of this process runs
 * inside it. There `read` must await nothing but its own queries (which
 * better-sqlite3 answers at once): giving up the event loop would let reads
 * that bypass Kysely on that connection, such as the page cache's version
 * read, run inside the snapshot and see the past.
 */
export async function inSnapshot<T>(connection: Connection, read: (db: Db) => Promise<T>): Promise<T> {
  if (connection.kind === "postgres") {
    return connection.db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute(read);
  }
  return connection.db.connection().execute(async (db) => {
    await sql`begin`.execute(db);
    try {
      return await read(db);
    } finally {
      // A read-only transaction: ending it either way keeps nothing but the snapshot's end.
      await sql`rollback`.execute(db);
    }
  });
}
