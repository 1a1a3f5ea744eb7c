import { revokeInvite, signedInAdmin } from "~/server/identity/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.invites.$id";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

export function loader() {
  return methodNotAllowed(["DELETE"]);
}

/** DELETE /api/admin/invites/{id}: 204, the link stops working; 404 if no such pending invitation. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const email = await revokeInvite(context.get(dbContext), params.id);
  if (!email) return jsonError(404, "Invitation not found");
  await recordAudit({
    action: "invite-revoked",
    admin,
    target: email,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return new Response(null, { status: 204 });
}
