import { leadOriginOf, recordConversion } from "../analytics/index.server";
import type { Db } from "../db/db.server";
import { BODY_LIMITS, readJsonBody } from "../platform/http.server";
import { getLogger } from "../platform/logger.server";
import { addressKey } from "../platform/throttle.server";
import { isLinksOnly, parseContactInput } from "./contact-input.server";
import { contactThrottle, storeContactMessage } from "./contact.server";
import { getMailer } from "../mail/index.server";
import { reserveAcknowledgement } from "./acknowledgement.server";

/**
 * The contact form's policy, in order (docs/product/contract.md#contact-messages,
 * ADRs 021, 070): a full address is refused before its body is read; the
 * message is checked; the address is charged before the message is stored,
 * so that of any number of parallel posts exactly as many as it has left get
 * through; a message the site judges spam (a filled honeypot, links and
 * little else) is kept apart with status `spam` and told "received"; a
 * message not stored is refunded; a stored one that is not spam queues its
 * notice and acknowledgement (jobs, with the contact.received event, in the
 * transaction that stores it) and counts as a conversion (ADR 056). The
 * route (app/routes/api/contact.ts) only turns the outcome into HTTP.
 */

const TOO_FAST_MESSAGE = "Error: That was quick! Please check your message and press Send Message again.";

export type Received =
  { kind: "accepted" } | { kind: "throttled"; retryAfterMs: number } | { kind: "invalid"; message: string };

export async function receiveMessage(db: Db, request: Request, clientAddress: string): Promise<Received> {
  const throttle = contactThrottle();
  const client = addressKey(clientAddress);
  const waitMs = await throttle.retryAfterMs(client);
  if (waitMs > 0) return { kind: "throttled", retryAfterMs: waitMs };
  const input = parseContactInput(await readJsonBody(request, BODY_LIMITS.contact));
  if (!input.ok) return { kind: "invalid", message: input.message };
  // A person is asked to press again (their text stays in the form); not stored, so never a duplicate.
  if (input.tooFast) return { kind: "invalid", message: TOO_FAST_MESSAGE };

  const reservation = await throttle.reserve(client);
  if (!reservation.ok) return { kind: "throttled", retryAfterMs: reservation.retryAfterMs };
  const spamReason = input.honeypot ? "honeypot" : isLinksOnly(input.value.message) ? "links-only" : null;
  if (spamReason) getLogger().info({ client, reason: spamReason }, "contact message kept as spam");
  try {
    const origin = await leadOriginOf(db, request, clientAddress);
    const acknowledge = spamReason === null && (await reserveAcknowledgement(db, input.value.email));
    await storeContactMessage(db, input.value, { notify: getMailer() !== null, acknowledge, origin, spamReason });
  } catch (error) {
    // Not stored, so not accepted: the visitor may send it again.
    await throttle.refund(client).catch(() => {});
    throw error;
  }
  // A conversion in the analytics: the page it was sent from, and the source of its sender's visit.
  if (spamReason === null) recordConversion(request, clientAddress);
  return { kind: "accepted" };
}
