import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { findRevision } from "~/server/posts/index.server";
import type { Route } from "./+types/admin.posts.$id.revisions.$revisionId";

/** One revision of the post, whole (ADR 043); 404 for another post's. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const revision = await findRevision(context.get(dbContext), params.id, params.revisionId);
  if (!revision) return jsonError(404, "Revision not found");
  return Response.json(revision, { headers: { "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
