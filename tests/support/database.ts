import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect, migrateToLatest, type Connection } from "~/server/db/db.server";

/** A real, migrated SQLite database in a new file, removed afterwards. */
export async function freshSqlite(): Promise<{ connection: Connection; file: string; cleanup: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ojai-db-"));
  const file = path.join(dir, "test.db");
  const connection = connect({ kind: "sqlite", file });
  await migrateToLatest(connection.db);
  return {
    connection,
    file,
    cleanup: async () => {
      await connection.db.destroy().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
