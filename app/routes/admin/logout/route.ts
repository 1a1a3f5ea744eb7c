import { redirect } from "react-router";
import { recordAudit } from "~/server/audit/index.server";
import { getAdmin, signOut } from "~/server/identity/index.server";
import type { Route } from "./+types/route";
import { clientAddressContext } from "~/server/platform/context.server";

export const loader = () => redirect("/admin");

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await getAdmin(request);
  if (admin)
    await recordAudit({ action: "sign-out", admin, request, clientAddress: context.get(clientAddressContext) });
  return redirect("/admin/login", { headers: { "Set-Cookie": await signOut(request) } });
}
