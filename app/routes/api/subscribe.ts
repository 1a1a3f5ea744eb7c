import { subscribeErrors } from "~/content/newsletter";
import { subscribe } from "~/server/newsletter/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { BODY_LIMITS, jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/subscribe";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/subscribe {email} (ADR 072): the newsletter's policy decides
 * (subscribe); this answers 202 {message} for every well-formed address,
 * whatever it is on the list, 400 {error, field} for a malformed one, 429
 * with Retry-After.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const outcome = await subscribe(context.get(dbContext), request, context.get(clientAddressContext), () =>
    readJsonBody(request, BODY_LIMITS.contact),
  );
  switch (outcome.kind) {
    case "accepted":
      return Response.json(
        { message: subscribeErrors.accepted },
        { status: 202, headers: { "Cache-Control": "no-store" } },
      );
    case "throttled":
      return jsonError(429, subscribeErrors.throttled, {
        "Retry-After": String(Math.ceil(outcome.retryAfterMs / 1000)),
      });
    case "refused":
      return Response.json(
        { error: outcome.message, field: outcome.field },
        { status: 400, headers: { "Cache-Control": "no-store" } },
      );
  }
}
