import { getConfig } from "../platform/config.server";
import { connect, type Connection, type Db } from "./db.server";
import { closeSqliteReaderOf } from "./sqlite-reader.server";

let current: Connection | undefined;

/** This process's database connection, opened on first use. */
export function getConnection(): Connection {
  current ??= connect(getConfig().database);
  return current;
}

export function getDb(): Db {
  return getConnection().db;
}

export async function closeConnection(): Promise<void> {
  const connection = current;
  current = undefined;
  if (connection?.kind === "sqlite") await closeSqliteReaderOf(connection.sqlite);
  if (connection) await connection.db.destroy();
}
