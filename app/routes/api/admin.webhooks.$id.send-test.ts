import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { sendTest, WebhookError } from "~/server/webhooks/index.server";
import type { Route } from "./+types/admin.webhooks.$id.send-test";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/admin/webhooks/{id}/test: a `webhook.test` delivery sent now, once; 200 with it as the log shows it. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  try {
    const delivery = await sendTest(context.get(dbContext), params.id.slice(0, 64));
    return Response.json(delivery, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof WebhookError) return jsonError(error.status, error.message);
    throw error;
  }
}
