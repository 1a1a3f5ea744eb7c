import { listOwnSessions, requireAdminApi, revokeOtherSessions } from "~/server/identity/index.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/auth.sessions";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

/** GET /api/auth/sessions: this administrator's live sessions, `current` marking the one asking. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdminApi(request);
  return Response.json(
    { sessions: await listOwnSessions(context.get(dbContext), admin, request) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** DELETE /api/auth/sessions: signs out every other session of this administrator (204). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["GET", "DELETE"]);
  const admin = await requireAdminApi(request);
  const count = await revokeOtherSessions(context.get(dbContext), admin, request);
  await recordAudit({
    action: "sessions-signed-out",
    admin,
    request,
    clientAddress: context.get(clientAddressContext),
    target: `${count} other session${count === 1 ? "" : "s"}`,
  });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
