import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import {
  changeLead,
  deleteMessage,
  describeLeadChange,
  findMessage,
  parseLeadChange,
} from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.messages.$id";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET /api/admin/messages/{id}: the message, its lead fields and its replies (ADR 070). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const message = await findMessage(context.get(dbContext), params.id);
  return message ? Response.json(message, { headers: NO_STORE }) : jsonError(404, "Message not found");
}

/**
 * PATCH {status?, note?, followUpAt?, read?}: 200 with the message, the
 * change in the audit log; DELETE: 204.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  if (request.method === "PATCH") {
    // An id that names no message is a 404 whatever the body says.
    if (!(await findMessage(db, params.id))) return jsonError(404, "Message not found");
    const change = parseLeadChange(await readJsonBody(request));
    if (!change.ok) return jsonError(400, change.message);
    const changed = await changeLead(db, params.id, change.value);
    if (!changed) return jsonError(404, "Message not found");
    const described = describeLeadChange(changed.before, changed.after);
    if (described) {
      await recordAudit({
        action: "lead-updated",
        admin: signedInAdmin(context),
        target: `${changed.after.id}: ${described}`,
        request,
        clientAddress: context.get(clientAddressContext),
      });
    }
    return Response.json(changed.after, { headers: NO_STORE });
  }
  if (request.method === "DELETE") {
    return (await deleteMessage(db, params.id))
      ? new Response(null, { status: 204 })
      : jsonError(404, "Message not found");
  }
  return methodNotAllowed(["GET", "PATCH", "DELETE"]);
}
