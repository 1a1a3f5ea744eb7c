import { dbContext } from "~/server/platform/context.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import { contentNameOf, listContentRevisions, MAX_CONTENT_REVISIONS } from "~/server/pages/index.server";
import type { Route } from "./+types/admin.content.$name.revisions";

/** GET: the page's published versions, newest first, the current one included (at most 50; ADR 053). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const revisions = await listContentRevisions(context.get(dbContext), contentNameOf(params.name));
  return Response.json({ revisions, limit: MAX_CONTENT_REVISIONS });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
