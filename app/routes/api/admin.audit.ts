import { listAuditEntries } from "~/server/audit/index.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { parseAuditListQuery } from "~/server/audit/index.server";
import type { Route } from "./+types/admin.audit";

/** GET /api/admin/audit: newest first, paged like the other admin lists, `action` and `admin` filters (ADR 038). */
export async function loader({ request }: Route.LoaderArgs) {
  const query = parseAuditListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { entries, total } = await listAuditEntries(getDb(), query.value);
  return Response.json(entries, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
