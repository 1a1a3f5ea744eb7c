/** Saved revisions kept per post (ADR 043); the oldest beyond it go with the save that adds one. */
export const MAX_REVISIONS = 50;
