import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { deleteWebhook } from "~/server/webhooks/index.server";
import type { Route } from "./+types/admin.webhooks.$id";

export function loader() {
  return methodNotAllowed(["DELETE"]);
}

/** DELETE /api/admin/webhooks/{id}: 204, with its deliveries (retries on their way send nothing); 404 if none. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const url = await deleteWebhook(context.get(dbContext), params.id.slice(0, 64));
  if (url === undefined) return jsonError(404, "Webhook not found");
  await recordAudit({
    action: "webhook-deleted",
    admin,
    target: url,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return new Response(null, { status: 204 });
}
