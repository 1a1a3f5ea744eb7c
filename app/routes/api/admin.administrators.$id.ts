import { AdminsError, removeAdministrator } from "~/server/admins.server";
import { recordAudit } from "~/server/audit.server";
import { requireAdminApi, signOut } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed } from "~/server/http.server";
import type { Route } from "./+types/admin.administrators.$id";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminApi(request);
  return methodNotAllowed(["DELETE"]);
}

/** DELETE /api/admin/administrators/{id}: 204; 409 for the last one; removing oneself also signs out. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  try {
    const email = await removeAdministrator(getDb(), params.id);
    await recordAudit({ action: "admin-removed", admin, target: email, request, clientAddress: context.clientAddress });
    const headers = params.id === admin.id ? { "Set-Cookie": await signOut(request) } : undefined;
    return new Response(null, { status: 204, headers });
  } catch (error) {
    if (error instanceof AdminsError) return jsonError(error.status, error.message);
    throw error;
  }
}
