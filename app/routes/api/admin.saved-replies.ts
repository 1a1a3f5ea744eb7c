import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { createSavedReply, listSavedReplies, parseSavedReply, SavedReplyError } from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.saved-replies";

/** GET /api/admin/saved-replies: every saved reply by name (at most 50, so never paged). */
export async function loader({ context }: Route.LoaderArgs) {
  const replies = await listSavedReplies(context.get(dbContext));
  return Response.json(replies, { headers: { "X-Total-Count": String(replies.length), "Cache-Control": "no-store" } });
}

/** POST {name, body}: 201 with the saved reply; 409 at the limit. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  try {
    const input = parseSavedReply(await readJsonBody(request));
    const saved = await createSavedReply(context.get(dbContext), input);
    await recordAudit({
      action: "saved-reply-changed",
      admin: signedInAdmin(context),
      target: `added ${saved.name}`,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    return Response.json(saved, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof SavedReplyError) return jsonError(error.status, error.message);
    throw error;
  }
}
