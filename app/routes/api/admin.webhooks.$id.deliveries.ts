import { z } from "zod";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { limit, offset, parseQuery } from "~/server/platform/paging.server";
import { getWebhook, listDeliveries } from "~/server/webhooks/index.server";
import type { Route } from "./+types/admin.webhooks.$id.deliveries";

/**
 * GET /api/admin/webhooks/{id}/deliveries: its attempts' log, newest first,
 * paged like the other admin lists: {id, event, status, attempts,
 * lastStatusCode, lastError, createdAt, lastAttemptAt}; 404 for no such webhook.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const query = parseQuery(z.object({ limit, offset }), new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const db = context.get(dbContext);
  const id = params.id.slice(0, 64);
  if (!(await getWebhook(db, id))) return jsonError(404, "Webhook not found");
  const { deliveries, total } = await listDeliveries(db, id, query.value);
  return Response.json(deliveries, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
