import { requireAdminApi } from "~/server/auth.server";
import { listContactMessages } from "~/server/contact.server";
import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed } from "~/server/http.server";
import { parseMessageListQuery } from "~/server/list-query.server";
import type { Route } from "./+types/admin.messages";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminApi(request);
  const query = parseMessageListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { messages, total } = await listContactMessages(getDb(), query.value);
  return Response.json(messages, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminApi(request);
  return methodNotAllowed(["GET"]);
}
