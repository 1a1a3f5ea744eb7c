import { bookingErrors } from "~/content/booking";
import { bookCall } from "~/server/booking/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { BODY_LIMITS, jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/booking";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/booking {start, name, email, phone?, message?, timeZone?}
 * (ADR 071): booking's policy decides (bookCall); this answers 201 {id,
 * start, end}, 409 when the slot is taken, 400 when it is not offered or a
 * field is wrong ({error, field}), 429 with Retry-After.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const outcome = await bookCall(context.get(dbContext), request, context.get(clientAddressContext), () =>
    readJsonBody(request, BODY_LIMITS.contact),
  );
  switch (outcome.kind) {
    case "booked": {
      const { id, start, end } = outcome.booking;
      return Response.json({ id, start, end }, { status: 201, headers: { "Cache-Control": "no-store" } });
    }
    case "throttled":
      return jsonError(429, bookingErrors.throttled, {
        "Retry-After": String(Math.ceil(outcome.retryAfterMs / 1000)),
      });
    case "refused":
      return Response.json(
        { error: outcome.message, field: outcome.field },
        { status: outcome.status, headers: { "Cache-Control": "no-store" } },
      );
  }
}
