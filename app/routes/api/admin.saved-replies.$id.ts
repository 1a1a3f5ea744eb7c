import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { deleteSavedReply, parseSavedReply, SavedReplyError, updateSavedReply } from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.saved-replies.$id";

export function loader() {
  return methodNotAllowed(["PUT", "DELETE"]);
}

/** PUT {name, body}: 200 with the saved reply; DELETE: 204. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const audit = async (target: string) =>
    recordAudit({
      action: "saved-reply-changed",
      admin: signedInAdmin(context),
      target,
      request,
      clientAddress: context.get(clientAddressContext),
    });
  try {
    if (request.method === "PUT") {
      const saved = await updateSavedReply(db, params.id, parseSavedReply(await readJsonBody(request)));
      if (!saved) return jsonError(404, "Saved reply not found");
      await audit(`changed ${saved.name}`);
      return Response.json(saved, { headers: { "Cache-Control": "no-store" } });
    }
    if (request.method === "DELETE") {
      if (!(await deleteSavedReply(db, params.id))) return jsonError(404, "Saved reply not found");
      await audit(`deleted ${params.id}`);
      return new Response(null, { status: 204 });
    }
  } catch (error) {
    if (error instanceof SavedReplyError) return jsonError(error.status, error.message);
    throw error;
  }
  return methodNotAllowed(["PUT", "DELETE"]);
}
