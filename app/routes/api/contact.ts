import { CONTACT_THROTTLED_MESSAGE, receiveMessage } from "~/server/messages/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/contact";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/contact: the inbox's policy decides (receiveMessage); this
 * answers. One answer for every accepted message, the honeypot's included,
 * so a bot cannot tell a dropped message from a stored one by status, body
 * or headers.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const received = await receiveMessage(context.get(dbContext), request, context.get(clientAddressContext));
  switch (received.kind) {
    case "accepted":
      return Response.json({ status: "received" }, { status: 201, headers: { "Cache-Control": "no-store" } });
    case "throttled":
      return jsonError(429, CONTACT_THROTTLED_MESSAGE, {
        "Retry-After": String(Math.ceil(received.retryAfterMs / 1000)),
      });
    case "invalid":
      return jsonError(400, received.message);
  }
}
