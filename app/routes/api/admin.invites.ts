import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { invitePath } from "~/lib/administrators";
import { AdminsError, createInvite, signedInAdmin, checkOwnPassword } from "~/server/identity/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.invites";
import { clientAddressContext, configContext, dbContext } from "~/server/platform/context.server";

const body = z.object({
  email: z.string().max(EMAIL_MAX_LENGTH),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/admin/invites {email, password}: 201 with the one-time link
 * (shown only in this answer). The inviter's password is asked again (ADR
 * 046): an invitation is a lasting account, more than a borrowed session
 * should be able to make. 400 without it, 403 when wrong, and nothing is made.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, "Send a JSON body with email and your current password as password");
  const { email, password } = parsed.data;
  const check = await checkOwnPassword(admin, password, context.get(clientAddressContext));
  if (!check.ok) return refusedAttempt(check);
  try {
    const { token, ...invite } = await createInvite(context.get(dbContext), email, admin);
    await recordAudit({
      action: "admin-invited",
      admin,
      target: invite.email,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    return Response.json(
      { ...invite, link: `${context.get(configContext).siteUrl}${invitePath(token)}` },
      { status: 201, headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (error instanceof AdminsError) return jsonError(error.status, error.message);
    throw error;
  }
}
