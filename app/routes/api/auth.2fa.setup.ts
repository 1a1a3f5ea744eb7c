import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import {
  checkOwnPassword,
  PASSWORD_REQUIRED,
  requireAdminApi,
  beginSetup,
  TwoFactorError,
} from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import type { Route } from "./+types/auth.2fa.setup";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const body = z.object({ password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/auth/2fa/setup {password} (docs/product/contract.md#password-for-sensitive-actions): a new secret to confirm
 * with /enable. The password is asked again (ADR 046): a borrowed session
 * alone must not tie the account to another phone. 400 without it, 403 when
 * wrong, and nothing changes.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const admin = await requireAdminApi(request);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, PASSWORD_REQUIRED);
  const check = await checkOwnPassword(admin, parsed.data.password, context.get(clientAddressContext));
  if (!check.ok) return refusedAttempt(check);
  try {
    const { secret, otpauthUrl } = await beginSetup(context.get(dbContext), admin);
    return Response.json({ secret, otpauthUrl }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof TwoFactorError) return jsonError(error.status, error.message);
    throw error;
  }
}
