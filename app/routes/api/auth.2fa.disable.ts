import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { checkOwnPassword, PASSWORD_REQUIRED, requireAdminApi, disableTwoFactor } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/auth.2fa.disable";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const body = z.object({ password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/auth/2fa/disable {password} (docs/product/contract.md#two-factor-sign-in): 204; 400 without the password, 403 when wrong (ADR 046). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const admin = await requireAdminApi(request);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, PASSWORD_REQUIRED);
  const check = await checkOwnPassword(admin, parsed.data.password, context.get(clientAddressContext));
  if (!check.ok) return refusedAttempt(check);
  await disableTwoFactor(context.get(dbContext), admin.id);
  await recordAudit({
    action: "two-factor-disabled",
    admin,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
