import { listAuditEntries, parseAuditListQuery } from "~/server/audit/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.audit";

/** GET /api/admin/audit: newest first, paged like the other admin lists, `action` and `admin` filters (ADR 038). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseAuditListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { entries, total } = await listAuditEntries(context.get(dbContext), query.value);
  return Response.json(entries, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
