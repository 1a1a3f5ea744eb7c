/**
 * The one spelling of a "contains" search in SQL on both backends (the
 * lists' `q`, ADR 026): `%`, `_` and `\` in `text` taken as themselves
 * inside a LIKE pattern written with `escape '\'` (PostgreSQL's default
 * escape, SQLite has none).
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, "\\$&")}%`;
