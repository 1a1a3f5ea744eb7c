import { requireAdminApi } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed } from "~/server/http.server";
import { beginSetup, TwoFactorError } from "~/server/two-factor.server";
import type { Route } from "./+types/auth.2fa.setup";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/auth/2fa/setup (PRODUCT §10): a new secret to confirm with /enable. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const admin = await requireAdminApi(request);
  try {
    const { secret, otpauthUrl } = await beginSetup(getDb(), admin);
    return Response.json({ secret, otpauthUrl }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof TwoFactorError) return jsonError(error.status, error.message);
    throw error;
  }
}
