import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import {
  AccountError,
  changeOwnPassword,
  checkOwnPassword,
  requireAdminApi,
  busyRefusal,
  HashingBusyError,
} from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import { recordAudit } from "~/server/audit/index.server";
import type { Route } from "./+types/auth.password";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const body = z.object({
  currentPassword: z.string().max(MAX_PASSWORD_LENGTH),
  newPassword: z.string().max(MAX_PASSWORD_LENGTH),
});

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/auth/password {currentPassword, newPassword}: 204, and every
 * other session of this administrator is signed out (ADR 037); 403 for a
 * wrong current password, 400 for a new one that is too short.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const admin = await requireAdminApi(request);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, "Send a JSON body with currentPassword and newPassword");
  const check = await checkOwnPassword(admin, parsed.data.currentPassword, context.get(clientAddressContext));
  if (!check.ok) return refusedAttempt(check);
  try {
    await changeOwnPassword(context.get(dbContext), admin, request, parsed.data.newPassword);
  } catch (error) {
    if (error instanceof AccountError) return jsonError(400, error.message);
    if (error instanceof HashingBusyError) return refusedAttempt(busyRefusal());
    throw error;
  }
  await recordAudit({ action: "password-changed", admin, request, clientAddress: context.get(clientAddressContext) });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
