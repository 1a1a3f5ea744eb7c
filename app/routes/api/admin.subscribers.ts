import { listSubscribers, subscriberList } from "~/server/newsletter/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.subscribers";

/**
 * GET /api/admin/subscribers (ADR 072): newest first, paged like the other
 * admin lists, `status` (pending, confirmed, unsubscribed) and `q` (part of
 * the address) filter: `{id, email, status, consent, createdAt,
 * confirmedAt, unsubscribedAt}`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = subscriberList.list(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { subscribers, total } = await listSubscribers(context.get(dbContext), query.value);
  return Response.json(subscribers, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
