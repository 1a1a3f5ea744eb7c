import { recordAudit } from "~/server/audit/index.server";
import { getAdmin, signOut } from "~/server/identity/index.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/auth.logout";
import { clientAddressContext } from "~/server/platform/context.server";

export function loader() {
  return methodNotAllowed(["POST"]);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const admin = await getAdmin(request);
  if (admin)
    await recordAudit({ action: "sign-out", admin, request, clientAddress: context.get(clientAddressContext) });
  return new Response(null, { status: 204, headers: { "Set-Cookie": await signOut(request) } });
}
