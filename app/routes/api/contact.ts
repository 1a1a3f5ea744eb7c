import { parseContactInput } from "~/lib/contact-input";
import { CONTACT_THROTTLED_MESSAGE, contactThrottle, scheduleNoticeSweep, storeContactMessage } from "~/server/contact.server";
import { getDb } from "~/server/db/index.server";
import { BODY_LIMITS, jsonError, methodNotAllowed, readJsonBody } from "~/server/http.server";
import { getLogger } from "~/server/logger.server";
import { getMailer } from "~/server/mail.server";
import type { Route } from "./+types/contact";

export const TOO_FAST_MESSAGE = "Error: That was quick! Please check your message and press Send Message again.";

export function loader() {
  return methodNotAllowed(["POST"]);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const throttle = contactThrottle();
  const client = context.clientAddress;
  const retryAfterMs = await throttle.retryAfterMs(client);
  if (retryAfterMs > 0) {
    return jsonError(429, CONTACT_THROTTLED_MESSAGE, { "Retry-After": String(Math.ceil(retryAfterMs / 1000)) });
  }
  const input = parseContactInput(await readJsonBody(request, BODY_LIMITS.contact));
  if (!input.ok) return jsonError(400, input.message);
  if (input.tooFast) return jsonError(400, TOO_FAST_MESSAGE);

  await throttle.hit(client);
  if (input.honeypot) {
    // Answer as if accepted, so the bot learns nothing; keep nothing.
    getLogger().info({ client }, "contact message dropped: honeypot filled");
    return Response.json({ status: "received" }, { status: 201 });
  }
  const mailer = getMailer();
  await storeContactMessage(getDb(), input.value, { notify: mailer !== null });
  if (mailer) scheduleNoticeSweep(0);
  return Response.json({ status: "received" }, { status: 201, headers: { "Cache-Control": "no-store" } });
}
