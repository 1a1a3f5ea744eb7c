import type { Connection } from "../db/db.server";
import { initContactThrottle } from "./contact.server";

/**
 * What the inbox builds once per process, called from server/startup.ts
 * before any request: the contact form's per-address throttle.
 */
export function init(connection: Connection): void {
  initContactThrottle(connection);
}
