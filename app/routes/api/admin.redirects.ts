import { z } from "zod";
import { REDIRECT_LIMITS, REDIRECT_STATUSES } from "~/lib/redirects";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { createRedirect, listRedirects, parseRedirectListQuery, RedirectError } from "~/server/redirects/index.server";
import type { Route } from "./+types/admin.redirects";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

/** A redirect's body: lengths bounded before any check looks at the text (the rules: app/lib/redirects.ts). */
export const redirectBody = z.object({
  from: z.string().max(REDIRECT_LIMITS.from * 2),
  to: z.string().max(REDIRECT_LIMITS.to * 2),
  status: z.union(REDIRECT_STATUSES.map((status) => z.literal(status))).optional(),
});
export const REDIRECT_BODY_MESSAGE = "Send a JSON body with from, to and optionally status (301 or 302)";

/** GET /api/admin/redirects: by `from`, paged like the other admin lists, `q` searches from and to (ADR 054). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseRedirectListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { redirects, total } = await listRedirects(context.get(dbContext), query.value);
  return Response.json(redirects, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

/** POST /api/admin/redirects {from, to, status?}: 201 with the stored redirect; 400 or 409 when refused. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const body = redirectBody.safeParse(await readJsonBody(request));
  if (!body.success) return jsonError(400, REDIRECT_BODY_MESSAGE);
  try {
    const redirect = await createRedirect(context.get(dbContext), body.data);
    await recordAudit({
      action: "redirect-created",
      admin,
      target: `${redirect.from} -> ${redirect.to}`,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    return Response.json(redirect, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof RedirectError) return jsonError(error.status, error.message);
    throw error;
  }
}
