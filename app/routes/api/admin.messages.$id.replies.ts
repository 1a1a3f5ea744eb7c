import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { addReply, findMessage, parseReplyBody, ReplyError } from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.messages.$id.replies";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET: the message's replies, oldest first (at most 50 by their bound). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const message = await findMessage(context.get(dbContext), params.id);
  return message ? Response.json(message.replies, { headers: NO_STORE }) : jsonError(404, "Message not found");
}

/**
 * POST {body}: 202 with the reply (status pending); a job sends it (ADR 070).
 * An `Idempotency-Key` header sent again answers the same reply and sends
 * nothing more. 409 without a mail server or a contact e-mail.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  try {
    const json = (await readJsonBody(request)) as { body?: unknown } | null;
    const body = parseReplyBody(json?.body);
    const key = request.headers.get("Idempotency-Key") ?? undefined;
    const db = context.get(dbContext);
    const { reply, created } = await addReply(db, params.id, body, key);
    if (created) {
      await recordAudit({
        action: "reply-sent",
        admin: signedInAdmin(context),
        target: params.id,
        request,
        clientAddress: context.get(clientAddressContext),
      });
    }
    return Response.json(reply, { status: 202, headers: NO_STORE });
  } catch (error) {
    if (error instanceof ReplyError) return jsonError(error.status, error.message);
    throw error;
  }
}
