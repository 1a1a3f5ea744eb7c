import type { Route } from "./+types/admin.administrators";
import { listAdministrators, listPendingInvites } from "~/server/identity/index.server";
import { dbContext } from "~/server/platform/context.server";
import { methodNotAllowed } from "~/server/platform/http.server";

/** GET /api/admin/administrators: every administrator and the pending invitations (ADR 038). */
export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [administrators, invites] = await Promise.all([listAdministrators(db), listPendingInvites(db)]);
  return Response.json({ administrators, invites }, { headers: { "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
