import type { Connection } from "../db/db.server";
import { initAcknowledgementThrottle } from "./acknowledgement.server";
import { initContactThrottle } from "./contact.server";

/**
 * What the inbox builds once per process, called from server/startup.ts
 * before any request: the contact form's per-address throttle and the
 * acknowledgement's per-recipient one.
 */
export function init(connection: Connection): void {
  initContactThrottle(connection);
  initAcknowledgementThrottle(connection);
}
