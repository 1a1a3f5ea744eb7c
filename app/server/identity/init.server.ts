import type { Connection } from "../db/db.server";
import { initSetupThrottle } from "./setup.server";
import { initSignInThrottles } from "./sign-in.server";
import { initCodeThrottles } from "./two-factor.server";

/**
 * What the identity domain builds once per process, called from
 * server/startup.ts (and the CLI) before any request: the throttles of
 * sign-in, two-factor codes and setup. Their functions refuse to run
 * without it rather than build them on a first request.
 */
export function init(connection: Connection): void {
  initSignInThrottles(connection);
  initCodeThrottles(connection);
  initSetupThrottle(connection);
}
