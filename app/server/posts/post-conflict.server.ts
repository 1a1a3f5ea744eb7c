import type { EditConflictError } from "./posts.server";

/**
 * The optional `baseUpdatedAt` of a PUT of a post (ADR 043): the post's
 * updatedAt when the editor opened it. Absent or null: no check, as before.
 */
export function parseBaseUpdatedAt(
  body: unknown,
): { ok: true; value: string | undefined } | { ok: false; message: string } {
  const value = (body as Record<string, unknown>).baseUpdatedAt;
  if (value == null) return { ok: true, value: undefined };
  // An ISO date-time as the API answers it: 24 characters; checked for length before parsing.
  if (typeof value !== "string" || value.length > 40 || Number.isNaN(Date.parse(value))) {
    return { ok: false, message: "baseUpdatedAt must be the post's updatedAt, an ISO 8601 date-time" };
  }
  return { ok: true, value };
}

export const EDIT_CONFLICT_MESSAGE =
  "This post was changed after you opened it (in another tab or by another administrator)";

/** 409 with the stored version's updatedAt, so the editor can say when and save over it on purpose. */
export function editConflictResponse(error: EditConflictError): Response {
  return Response.json({ error: EDIT_CONFLICT_MESSAGE, updatedAt: error.updatedAt }, { status: 409 });
}
