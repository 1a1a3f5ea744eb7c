import { getDb } from "~/server/db/index.server";
import { requireAdminApi } from "~/server/identity/index.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import { contentNameOf, listContentRevisions, MAX_CONTENT_REVISIONS } from "~/server/site-content/index.server";
import type { Route } from "./+types/admin.content.$name.revisions";

/** GET: the page's published versions, newest first, the current one included (at most 50; ADR 053). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminApi(request);
  const revisions = await listContentRevisions(getDb(), contentNameOf(params.name));
  return Response.json({ revisions, limit: MAX_CONTENT_REVISIONS });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminApi(request);
  return methodNotAllowed(["GET"]);
}
