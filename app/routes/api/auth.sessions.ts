import { listOwnSessions, requireAdminApi, revokeOtherSessions } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { methodNotAllowed } from "~/server/http.server";
import type { Route } from "./+types/auth.sessions";

/** GET /api/auth/sessions: this administrator's live sessions, `current` marking the one asking. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminApi(request);
  return Response.json(
    { sessions: await listOwnSessions(getDb(), admin, request) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** DELETE /api/auth/sessions: signs out every other session of this administrator (204). */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["GET", "DELETE"]);
  const admin = await requireAdminApi(request);
  await revokeOtherSessions(getDb(), admin, request);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
