import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { ADMIN_NAME_MAX_LENGTH } from "~/lib/administrators";
import { acceptInvite, AdminsError, InviteError, busyRefusal, HashingBusyError } from "~/server/identity/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import type { Route } from "./+types/auth.invite";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const body = z.object({
  token: z.string().max(200),
  name: z.string().max(ADMIN_NAME_MAX_LENGTH * 2),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/auth/invite {token, name, password}: 201 and a session; 403
 * naming why the link no longer works (checked before the password is
 * hashed); 503 when the password checks are busy (ADR 046).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, "Send a JSON body with token, name and password");
  try {
    const { user, setCookie } = await acceptInvite(context.get(dbContext), parsed.data);
    await recordAudit({
      action: "admin-joined",
      admin: user,
      target: user.email,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    return Response.json({ user: { email: user.email } }, { status: 201, headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    if (error instanceof InviteError) {
      return Response.json({ error: error.message, reason: error.state }, { status: 403 });
    }
    if (error instanceof AdminsError) return jsonError(error.status, error.message);
    if (error instanceof HashingBusyError) return refusedAttempt(busyRefusal());
    throw error;
  }
}
