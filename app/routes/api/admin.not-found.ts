import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { listNotFound, parseNotFoundListQuery } from "~/server/redirects/index.server";
import type { Route } from "./+types/admin.not-found";

/**
 * GET /api/admin/not-found: the not-found log (ADR 054), most hits first,
 * paged like the other admin lists: `{path, hits, lastSeenAt, referrerHost}`.
 * Not to be confused with admin.unknown.ts, the 404 of unknown admin API paths.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseNotFoundListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { entries, total } = await listNotFound(context.get(dbContext), query.value);
  return Response.json(entries, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
