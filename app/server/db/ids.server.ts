/** Every row id is a random UUID (crypto.randomUUID), in lower-case hex. */
const RECORD_ID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/;

/**
 * Whether a value from a URL can be the id of a row. Anything else names no
 * row, so a lookup answers "not found" without asking the database (and a NUL
 * or a 100 KB segment never reaches PostgreSQL).
 */
export function isRecordId(value: string): boolean {
  return value.length === 36 && RECORD_ID.test(value);
}
