import { z } from "zod";
import { requireAdminApi, revokeOtherSessions, CODE_MAX_LENGTH, enableTwoFactor } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/auth.2fa.enable";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const body = z.object({ code: z.string().max(CODE_MAX_LENGTH) });

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/auth/2fa/enable {code} (docs/product/contract.md#two-factor-sign-in): 200 {recoveryCodes}, and every other session of the account ends; or 400. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const admin = await requireAdminApi(request);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, "Send a JSON body with the code from the authenticator app");
  const result = await enableTwoFactor(
    context.get(dbContext),
    admin.id,
    parsed.data.code,
    context.get(clientAddressContext),
  );
  if (!result.ok) return refusedAttempt(result);
  // Sessions opened with the password alone end: a borrowed one must not outlive 2FA (ADR 046).
  await revokeOtherSessions(context.get(dbContext), admin, request);
  await recordAudit({ action: "two-factor-enabled", admin, request, clientAddress: context.get(clientAddressContext) });
  return Response.json({ recoveryCodes: result.recoveryCodes }, { headers: { "Cache-Control": "no-store" } });
}
