import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import {
  AdminsError,
  removeAdministrator,
  signedInAdmin,
  checkOwnPassword,
  PASSWORD_REQUIRED,
  signOut,
} from "~/server/identity/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.administrators.$id";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const body = z.object({ password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });

export function loader() {
  return methodNotAllowed(["DELETE"]);
}

/**
 * DELETE /api/admin/administrators/{id} with the JSON body {password}: 204,
 * their sessions end and their pending invitations are withdrawn; 409 for
 * the last one; removing oneself also signs out. The remover's password is
 * asked again (ADR 046): 400 without it, 403 when wrong, and nothing changes.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, PASSWORD_REQUIRED);
  const check = await checkOwnPassword(admin, parsed.data.password, context.get(clientAddressContext));
  if (!check.ok) return refusedAttempt(check);
  try {
    const email = await removeAdministrator(context.get(dbContext), params.id);
    await recordAudit({
      action: "admin-removed",
      admin,
      target: email,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    const headers = params.id === admin.id ? { "Set-Cookie": await signOut(request) } : undefined;
    return new Response(null, { status: 204, headers });
  } catch (error) {
    if (error instanceof AdminsError) return jsonError(error.status, error.message);
    throw error;
  }
}
