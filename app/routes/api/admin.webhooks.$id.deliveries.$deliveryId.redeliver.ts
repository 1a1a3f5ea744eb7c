import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { redeliver, WebhookError } from "~/server/webhooks/index.server";
import type { Route } from "./+types/admin.webhooks.$id.deliveries.$deliveryId.redeliver";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver: a
 * delivered or failed delivery sent again now, with the same webhook-id and
 * body; 200 with it; 409 while it is still being retried; 404 for none.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  try {
    const delivery = await redeliver(context.get(dbContext), params.id.slice(0, 64), params.deliveryId.slice(0, 64));
    return Response.json(delivery, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof WebhookError) return jsonError(error.status, error.message);
    throw error;
  }
}
