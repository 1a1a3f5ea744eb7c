import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { contentNameOf, revokePageShareLink } from "~/server/pages/index.server";
import type { Route } from "./+types/admin.content.$name.share-links.$linkId";

/** DELETE: revokes one of the page's share links (204; 404 when it has no such link). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const name = contentNameOf(params.name);
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  if (!(await revokePageShareLink(context.get(dbContext), name, params.linkId)))
    return jsonError(404, "No such share link");
  return new Response(null, { status: 204 });
}

export function loader() {
  return methodNotAllowed(["DELETE"]);
}
