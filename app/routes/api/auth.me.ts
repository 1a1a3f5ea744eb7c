import { getAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/auth.me";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await getAdmin(request);
  if (!admin) return jsonError(401, "Not signed in");
  return Response.json({ user: { email: admin.email } }, { headers: { "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
