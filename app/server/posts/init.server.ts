import type { Connection } from "../db/db.server";
import { initSearchThrottle } from "./search.server";

/**
 * What the posts domain builds once per process, called from
 * server/startup.ts before any request: the blog search's per-address throttle.
 */
export function init(connection: Connection): void {
  initSearchThrottle(connection);
}
