import {
  deleteMessagesFrom,
  listContactMessages,
  parseMessageListQuery,
  parseSenderQuery,
} from "~/server/messages/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.messages";

/** GET /api/admin/messages?limit=&offset=&status=&q=: one page of the inbox (ADRs 026, 035). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseMessageListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { messages, total } = await listContactMessages(context.get(dbContext), query.value);
  return Response.json(messages, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

/** DELETE /api/admin/messages?email=: every message from that sender, ignoring case; 200 `{deleted}`. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["GET", "DELETE"]);
  const query = parseSenderQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const deleted = await deleteMessagesFrom(context.get(dbContext), query.value.email);
  return Response.json({ deleted }, { headers: { "Cache-Control": "no-store" } });
}
