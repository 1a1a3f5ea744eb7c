import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { listRevisions, MAX_REVISIONS, findPostById } from "~/server/posts/index.server";
import type { Route } from "./+types/admin.posts.$id.revisions";

/** The post's kept revisions, newest first (at most MAX_REVISIONS, ADR 043). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  if (!(await findPostById(db, params.id))) return jsonError(404, "Post not found");
  const revisions = await listRevisions(db, params.id);
  return Response.json({ revisions, limit: MAX_REVISIONS }, { headers: { "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
