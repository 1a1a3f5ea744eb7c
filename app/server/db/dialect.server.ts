import { PostgresAdapter, type DialectAdapter } from "kysely";

/**
 * True on PostgreSQL, false on SQLite. For the few places where one spelling
 * does not serve both backends (a column type, an index only one of them
 * has); everything else is written once. Takes any Kysely instance (the
 * migrations' Kysely<any> as well as the app's).
 */
export function isPostgres(db: { getExecutor(): { readonly adapter: DialectAdapter } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
