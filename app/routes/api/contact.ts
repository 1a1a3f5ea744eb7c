import { parseContactInput } from "~/server/inbox/index.server";
import {
  CONTACT_THROTTLED_MESSAGE,
  contactThrottle,
  scheduleNoticeSweep,
  storeContactMessage,
} from "~/server/inbox/index.server";
import { getDb } from "~/server/db/index.server";
import { BODY_LIMITS, jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { getLogger } from "~/server/platform/logger.server";
import { getMailer } from "~/server/inbox/index.server";
import { addressKey } from "~/server/platform/throttle.server";
import { recordConversion } from "~/server/analytics/index.server";
import type { Route } from "./+types/contact";
import { clientAddressContext } from "~/server/platform/context.server";

export const TOO_FAST_MESSAGE = "Error: That was quick! Please check your message and press Send Message again.";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * One answer for every accepted message, the honeypot's included, so a bot
 * cannot tell a dropped message from a stored one by status, body or headers.
 */
function accepted(): Response {
  return Response.json({ status: "received" }, { status: 201, headers: { "Cache-Control": "no-store" } });
}

function throttled(retryAfterMs: number): Response {
  return jsonError(429, CONTACT_THROTTLED_MESSAGE, { "Retry-After": String(Math.ceil(retryAfterMs / 1000)) });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const throttle = contactThrottle();
  const client = addressKey(context.get(clientAddressContext));
  // A full address is told so before its body is read.
  const waitMs = await throttle.retryAfterMs(client);
  if (waitMs > 0) return throttled(waitMs);
  const input = parseContactInput(await readJsonBody(request, BODY_LIMITS.contact));
  if (!input.ok) return jsonError(400, input.message);
  if (input.tooFast) return jsonError(400, TOO_FAST_MESSAGE);

  // Counted before it is stored (ADR 021): of any number of parallel posts,
  // exactly as many as the address has left get through.
  const reservation = await throttle.reserve(client);
  if (!reservation.ok) return throttled(reservation.retryAfterMs);
  if (input.honeypot) {
    // Answer as if accepted, so the bot learns nothing; keep nothing.
    getLogger().info({ client }, "contact message dropped: honeypot filled");
    return accepted();
  }
  const mailer = getMailer();
  try {
    await storeContactMessage(getDb(), input.value, { notify: mailer !== null });
  } catch (error) {
    // Not stored, so not accepted: the visitor may send it again.
    await throttle.refund(client).catch(() => {});
    throw error;
  }
  if (mailer) scheduleNoticeSweep(0);
  // A conversion in the analytics (ADR 056): the page it was sent from, and the source of its sender's visit.
  recordConversion(request, context.get(clientAddressContext));
  return accepted();
}
