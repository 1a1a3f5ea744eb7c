import { createHash } from "node:crypto";
import SqliteDatabase from "better-sqlite3";
import { Kysely, sql, SqliteDialect } from "kysely";
import type { Pack } from "tar-stream";
import type { Connection, Db } from "../db/db.server";
import type { Database } from "../db/schema.server";
import { isPlainSecret, openSecret, sealSecret } from "../identity/index.server";
import { givingWay } from "../platform/event-loop.server";
import {
  BACKED_UP_TABLES,
  BackupError,
  BACKUP_FORMAT,
  BACKUP_VERSION,
  CHECKSUMS,
  COUNTS,
  imageFileName,
  imageJsonName,
  JSONL_PIECE_BYTES,
  jsonlName,
  MANIFEST,
  ROW_TABLES,
  variantFileName,
  type Counts,
  type ImageJson,
  type Manifest,
  type RowTable,
} from "./format.server";

/** Rows read per query; a page of posts is at most a few MB. */
const PAGE_ROWS = 50;
/**
 * Runs `read` on one snapshot of the database, so a backup taken while the
 * site runs is one moment of it.
 * PostgreSQL: a read-only REPEATABLE READ transaction on one pooled client.
 * SQLite: a read transaction on a connection of its own, opened read-only
 * for the backup: the process's one connection must stay free for requests
 * while the download streams (and a transaction held on it across awaits
 * would take every other query of the process into it).
 */
async function inBackupSnapshot<T>(connection: Connection, read: (db: Db) => Promise<T>): Promise<T> {
  if (connection.kind === "postgres") {
    return connection.db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute(read);
  }
  const own = new SqliteDatabase(connection.sqlite.name, { readonly: true, fileMustExist: true });
  own.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: own }) });
  try {
    return await db.connection().execute(async (single) => {
      await sql`begin`.execute(single);
      try {
        return await read(single);
      } finally {
        await sql`rollback`.execute(single);
      }
    });
  } finally {
    await db.destroy();
  }
}

/**
 * Writes the whole site into `pack` as a backup (format.server.ts), reading
 * one page of rows or one image at a time, and waiting for each entry to be
 * taken before reading the next: memory stays at about one image and one
 * piece of rows, whatever the size of the site. Finalizes the pack on success;
 * destroys it with the error otherwise.
 */
export async function writeBackup(connection: Connection, pack: Pack, totpKey: Buffer | undefined): Promise<Counts> {
  try {
    const counts = await inBackupSnapshot(connection, (db) => writeEntries(db, connection.kind, pack, totpKey));
    pack.finalize();
    return counts;
  } catch (error) {
    pack.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

async function writeEntries(db: Db, source: string, pack: Pack, totpKey: Buffer | undefined): Promise<Counts> {
  const sums: string[] = [];
  const rows: Record<string, number> = {};
  const mtime = new Date();
  const giveWay = givingWay();
  const add = async (name: string, data: Buffer) => {
    // SQLite reads synchronously, and a fast client's socket takes megabytes
    // without waiting: without a pause every few milliseconds a backup would
    // hold the event loop for hundreds of them (no other request answered).
    await giveWay();
    await new Promise<void>((resolve, reject) => {
      sums.push(`${createHash("sha256").update(data).digest("hex")}  ${name.slice(name.indexOf("/") + 1)}`);
      try {
        pack.entry({ name, size: data.byteLength, mtime, mode: 0o644 }, data, (error) =>
          error ? reject(error) : resolve(),
        );
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };

  const tables: Record<string, string[]> = {};
  for (const table of (await db.introspection.getTables()).filter((t) => BACKED_UP_TABLES.includes(t.name as never))) {
    tables[table.name] = table.columns.map((column) => column.name);
  }
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: mtime.toISOString(),
    source,
    tables,
    description:
      "A whole-site backup; see docs/backup-format.md in the site's source. Restore: npm run admin -- restore FILE",
  };
  await add(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));

  rows.images = 0;
  rows.image_variants = 0;
  for (let after = ""; ;) {
    const page = await db
      .selectFrom("images")
      .select(["id", "source_format", "width", "height", "content_type", "byte_size", "created_at"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(PAGE_ROWS)
      .execute();
    for (const image of page) {
      const variants = await db
        .selectFrom("image_variants")
        .selectAll()
        .where("image_id", "=", image.id)
        .orderBy("format")
        .orderBy("width")
        .execute();
      const json: ImageJson = {
        image,
        file: imageFileName(image.id, image.content_type),
        variants: variants.map(({ bytes: _bytes, ...row }) => ({
          row,
          file: variantFileName(image.id, row.width, row.format),
        })),
      };
      await add(imageJsonName(image.id), Buffer.from(`${JSON.stringify(json, null, 2)}\n`));
      const { bytes } = await db
        .selectFrom("images")
        .select("bytes")
        .where("id", "=", image.id)
        .executeTakeFirstOrThrow();
      await add(json.file, asBuffer(bytes));
      for (const [i, variant] of variants.entries()) await add(json.variants[i]!.file, asBuffer(variant.bytes));
      rows.images += 1;
      rows.image_variants += variants.length;
    }
    if (page.length < PAGE_ROWS) break;
    after = page.at(-1)!.id;
  }

  for (const table of ROW_TABLES) {
    rows[table] = await writeRows(db, table, add, table === "admin_users" ? withSecretsSealed(totpKey) : undefined);
  }

  const counts: Counts = { rows, entries: sums.length + 1 };
  await add(COUNTS, Buffer.from(`${JSON.stringify(counts, null, 2)}\n`));
  await add(CHECKSUMS, Buffer.from(`${sums.join("\n")}\n`));
  return counts;
}

/** The driver's bytes as a Buffer, without copying them. */
const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * An administrator's row as a backup holds it (ADR 047): a two-factor secret
 * only ever encrypted. The database holds them so from the first start of
 * this version; a secret an older process wrote since (a rolling upgrade) is
 * encrypted here, and without a key the backup is refused.
 */
function withSecretsSealed(key: Buffer | undefined) {
  return (row: Record<string, unknown>): Record<string, unknown> => {
    const sealed = { ...row };
    for (const column of ["totp_secret", "totp_pending_secret"]) {
      const value = row[column];
      if (typeof value !== "string" || !isPlainSecret(value)) continue;
      if (!key) {
        throw new BackupError(
          "A two-factor secret is stored unencrypted and this site has no key to encrypt it with: set TOTP_ENCRYPTION_KEY and start the site once",
        );
      }
      sealed[column] = sealSecret(openSecret(value, key), key);
    }
    return sealed;
  };
}

/** The primary key of the row tables whose key is not `id`. */
const KEY_COLUMNS: Partial<Record<RowTable, string[]>> = {
  site_content: ["name"],
  analytics_days: ["day"],
  analytics_counts: ["day", "dimension", "key"],
};

/** A table's rows as pieces of JSON lines, in key order (`transform`: what a row is written as). */
async function writeRows(
  db: Db,
  table: RowTable,
  add: (name: string, data: Buffer) => Promise<void>,
  transform: (row: Record<string, unknown>) => Record<string, unknown> = (row) => row,
) {
  let lines: string[] = [];
  let size = 0;
  let piece = 0;
  let count = 0;
  const flush = async () => {
    if (lines.length === 0) return;
    piece += 1;
    await add(jsonlName(table, piece), Buffer.from(`${lines.join("\n")}\n`));
    lines = [];
    size = 0;
  };
  // Every table here has a text or integer primary key: id, a page's name (site_content), a day
  // (analytics_days), or a day's dimension and key (analytics_counts), read in key order.
  const keys = KEY_COLUMNS[table] ?? ["id"];
  for (let after: unknown[] | undefined; ;) {
    let query = keys.reduce((ordered, column) => ordered.orderBy(column as never), db.selectFrom(table).selectAll());
    query = query.limit(PAGE_ROWS);
    if (after !== undefined) {
      const last = after;
      query =
        keys.length === 1
          ? query.where(keys[0] as never, ">", last[0] as never)
          : query.where((eb) =>
              eb(eb.refTuple(...(keys as [never, never, never])), ">", eb.tuple(...(last as [never, never, never]))),
            );
    }
    const page = (await query.execute()) as Array<Record<string, unknown>>;
    for (const row of page) {
      const line = JSON.stringify(transform(row));
      lines.push(line);
      size += Buffer.byteLength(line) + 1;
      count += 1;
      if (size >= JSONL_PIECE_BYTES) await flush();
    }
    if (page.length < PAGE_ROWS) break;
    after = keys.map((column) => page.at(-1)![column]);
  }
  await flush();
  return count;
}
