import { backupStorage, listStoredBackups, parseStoredBackupsQuery } from "~/server/backup/index.server";
import { configContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.backups";

/**
 * GET /api/admin/backups (ADR 078): the stored (off-site) backups, newest
 * first, paged like the other admin lists; 404 when off-site storage is not
 * configured, 502 when it cannot be reached.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseStoredBackupsQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { items, total } = await listStoredBackups(backupStorage(context.get(configContext)), query.value);
  return Response.json(items, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
