import { subscribeErrors } from "~/content/newsletter";
import { isValidEmail } from "~/lib/email";
import { recordConversion } from "../analytics/index.server";
import type { Connection, Db } from "../db/db.server";
import { throttleKeyMaterial } from "../identity/index.server";
import { addressKey, createThrottle, type Throttle } from "../platform/throttle.server";
import { requestSubscription } from "./subscribers.server";

/**
 * The newsletter's policy for a visitor's sign-up (ADR 072), for
 * POST /api/subscribe and the /newsletter form alike: a full client address
 * is refused before its body is read; the address is checked; the client is
 * charged before any work; the answer is the same whether the address is
 * new, pending, confirmed or unsubscribed, so nobody learns who is on the
 * list; a started sign-up is a conversion in the analytics.
 */

/** Per client address: this many sign-ups an hour. */
const SUBSCRIBE_THROTTLE = { points: 20, durationSeconds: 60 * 60 };

let throttle: Throttle | undefined;
export function initSubscribeThrottle(connection: Connection): void {
  throttle = createThrottle(connection, { name: "subscribe", ...SUBSCRIBE_THROTTLE, keyMaterial: throttleKeyMaterial });
}

export type SubscribeOutcome =
  | { kind: "accepted" }
  | { kind: "throttled"; retryAfterMs: number }
  | { kind: "refused"; field: "email"; message: string };

/** The e-mail field of a JSON body or a form, trimmed, or undefined when it is not a usable address. */
function subscribeEmailOf(body: unknown): string | undefined {
  const value =
    body instanceof URLSearchParams
      ? body.get("email")
      : body && typeof body === "object"
        ? (body as Record<string, unknown>).email
        : undefined;
  if (typeof value !== "string") return undefined;
  const email = value.trim();
  return isValidEmail(email) ? email : undefined;
}

export async function subscribe(
  db: Db,
  request: Request,
  clientAddress: string,
  readBody: () => Promise<unknown>,
): Promise<SubscribeOutcome> {
  if (!throttle) throw new Error("newsletter: init() was not called at start (server/startup.ts)");
  const client = addressKey(clientAddress);
  const waitMs = await throttle.retryAfterMs(client);
  if (waitMs > 0) return { kind: "throttled", retryAfterMs: waitMs };
  const email = subscribeEmailOf(await readBody());
  if (!email) return { kind: "refused", field: "email", message: subscribeErrors.email };
  const reservation = await throttle.reserve(client);
  if (!reservation.ok) return { kind: "throttled", retryAfterMs: reservation.retryAfterMs };
  if (await requestSubscription(db, email)) recordConversion(request, clientAddress);
  return { kind: "accepted" };
}
