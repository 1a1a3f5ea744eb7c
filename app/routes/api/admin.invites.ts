import { z } from "zod";
import { EMAIL_MAX_LENGTH } from "~/lib/email";
import { invitePath } from "~/lib/admins";
import { AdminsError, createInvite } from "~/server/admins.server";
import { recordAudit } from "~/server/audit.server";
import { requireAdminApi } from "~/server/auth.server";
import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/http.server";
import type { Route } from "./+types/admin.invites";

const body = z.object({ email: z.string().max(EMAIL_MAX_LENGTH) });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminApi(request);
  return methodNotAllowed(["POST"]);
}

/** POST /api/admin/invites {email}: 201 with the one-time link (shown only in this answer). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const parsed = body.safeParse(await readJsonBody(request));
  if (!parsed.success) return jsonError(400, "Send a JSON body with email");
  try {
    const { token, ...invite } = await createInvite(getDb(), parsed.data.email, admin);
    await recordAudit({
      action: "admin-invited",
      admin,
      target: invite.email,
      request,
      clientAddress: context.clientAddress,
    });
    return Response.json(
      { ...invite, link: `${getConfig().siteUrl}${invitePath(token)}` },
      { status: 201, headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (error instanceof AdminsError) return jsonError(error.status, error.message);
    throw error;
  }
}
