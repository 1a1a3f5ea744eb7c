import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { findSubscriber, removeSubscriber } from "~/server/newsletter/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.subscribers.$id";

/** GET /api/admin/subscribers/{id}: one subscriber, or 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const subscriber = await findSubscriber(context.get(dbContext), params.id);
  if (!subscriber) return jsonError(404, "Subscriber not found");
  return Response.json(subscriber, { headers: { "Cache-Control": "no-store" } });
}

/** DELETE /api/admin/subscribers/{id}: the address is forgotten at once (ADR 072); 204, or 404. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "DELETE") return methodNotAllowed(["GET", "DELETE"]);
  const removed = await removeSubscriber(context.get(dbContext), params.id);
  if (!removed) return jsonError(404, "Subscriber not found");
  await recordAudit({
    action: "subscriber-removed",
    admin,
    // The id, not the address: a removed address is forgotten, the audit log included.
    target: `subscriber ${removed.id}`,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return new Response(null, { status: 204 });
}
