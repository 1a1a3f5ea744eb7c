import { requireAdminApi, revokeOwnSession } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/auth.sessions.$id";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const LISTED_ID = /^[0-9a-f]{32}$/;

export function loader() {
  return methodNotAllowed(["DELETE"]);
}

/** DELETE /api/auth/sessions/{id}: signs out one of this administrator's sessions (204), 404 if none. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const admin = await requireAdminApi(request);
  if (!LISTED_ID.test(params.id) || !(await revokeOwnSession(context.get(dbContext), admin, params.id))) {
    return jsonError(404, "No such session");
  }
  await recordAudit({
    action: "sessions-signed-out",
    admin,
    request,
    clientAddress: context.get(clientAddressContext),
    target: "one session",
  });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
