import SqliteDatabase from "better-sqlite3";
import pg from "pg";

type Value = string | number | null;

/**
 * Inserts `rows` into `table` of a site's database (a SQLite file or a
 * postgres:// URL), as stored: for tests that need rows no request can make
 * as they want them (subscribers in each status with their dates, a
 * mailing under way). Every row has the first row's columns.
 */
export async function insertRows(databaseUrl: string, table: string, rows: Array<Record<string, Value>>) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const values = rows.flatMap((row) => columns.map((column) => row[column] ?? null));
  if (databaseUrl.startsWith("postgres")) {
    const tuples = rows.map((_, r) => `(${columns.map((_c, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`insert into ${table} (${columns.join(", ")}) values ${tuples.join(", ")}`, values);
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = new SqliteDatabase(databaseUrl);
  try {
    sqlite.pragma("busy_timeout = 5000");
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    sqlite
      .prepare(`insert into ${table} (${columns.join(", ")}) values ${rows.map(() => tuple).join(", ")}`)
      .run(...values);
  } finally {
    sqlite.close();
  }
}
