import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { contentNameOf, readContentRevision } from "~/server/pages/index.server";
import type { Route } from "./+types/admin.content.$name.revisions.$revisionId";

/** GET: one published version of the page, whole (ADR 053); restoring it is a PUT of its document. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const revision = await readContentRevision(context.get(dbContext), contentNameOf(params.name), params.revisionId);
  if (!revision) return jsonError(404, "No such version of this page");
  return Response.json(revision);
}

export function action() {
  return methodNotAllowed(["GET"]);
}
