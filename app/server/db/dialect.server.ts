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

/** Foreign-key violation, in either dialect: a row names one that is not there (or is still named). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}
