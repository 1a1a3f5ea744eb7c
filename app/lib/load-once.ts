/**
 * A module (or other resource) loaded when first wanted: every call while it
 * loads or after it loaded shares one promise; a failed load is tried again
 * by the next call. Used for the parts of a public page that load on first
 * use (ADR 018), and for the server's dependencies that only rare work
 * needs (ADR 088).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    }));
}
