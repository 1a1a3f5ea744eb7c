import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { deleteRedirect, findRedirect, RedirectError, updateRedirect } from "~/server/redirects/index.server";
import { REDIRECT_BODY_MESSAGE, redirectBody } from "./admin.redirects";
import type { Route } from "./+types/admin.redirects.$id";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const NOT_FOUND = "Redirect not found";

/** GET /api/admin/redirects/{id}: one redirect. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const redirect = await findRedirect(context.get(dbContext), params.id);
  return redirect ? Response.json(redirect, { headers: { "Cache-Control": "no-store" } }) : jsonError(404, NOT_FOUND);
}

/** PUT {from, to, status?}: the redirect changed (checked as a new one); DELETE: 204. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const audit = (action: "redirect-updated" | "redirect-deleted", target: string) =>
    recordAudit({ action, admin, target, request, clientAddress: context.get(clientAddressContext) });
  if (request.method === "PUT") {
    const body = redirectBody.safeParse(await readJsonBody(request));
    if (!body.success) return jsonError(400, REDIRECT_BODY_MESSAGE);
    try {
      const redirect = await updateRedirect(context.get(dbContext), params.id, body.data);
      if (!redirect) return jsonError(404, NOT_FOUND);
      await audit("redirect-updated", `${redirect.from} -> ${redirect.to}`);
      return Response.json(redirect, { headers: { "Cache-Control": "no-store" } });
    } catch (error) {
      if (error instanceof RedirectError) return jsonError(error.status, error.message);
      throw error;
    }
  }
  if (request.method === "DELETE") {
    const deleted = await deleteRedirect(context.get(dbContext), params.id);
    if (!deleted) return jsonError(404, NOT_FOUND);
    await audit("redirect-deleted", `${deleted.from} -> ${deleted.to}`);
    return new Response(null, { status: 204 });
  }
  return methodNotAllowed(["GET", "PUT", "DELETE"]);
}
