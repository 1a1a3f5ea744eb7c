import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { parseAcknowledgement, readAcknowledgement, saveAcknowledgement } from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.acknowledgement";

/** GET /api/admin/acknowledgement: {enabled, text} (text null: the default), ADR 070. */
export async function loader({ context }: Route.LoaderArgs) {
  return Response.json(await readAcknowledgement(context.get(dbContext)), { headers: { "Cache-Control": "no-store" } });
}

/** PUT {enabled, text?}: 200 with the saved setting. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const parsed = parseAcknowledgement(await readJsonBody(request));
  if (!parsed.ok) return jsonError(400, parsed.message);
  const saved = await saveAcknowledgement(context.get(dbContext), parsed.value);
  await recordAudit({
    action: "acknowledgement-changed",
    admin: signedInAdmin(context),
    target: saved.enabled ? "on" : "off",
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return Response.json(saved, { headers: { "Cache-Control": "no-store" } });
}
