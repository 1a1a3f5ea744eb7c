import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { accessLog } from "./access-log";
import { securityHeaders, setNonce } from "./security-headers";

/**
 * What runs on the bare Node request before Express (docs/architecture.md,
 * "Life of a request"). A page-cache hit is answered here without building
 * Express's request and response (ADR 024), so whatever every answer needs
 * must run here too, in this order:
 *
 *   1. the access log (it times the answer, so it starts first);
 *   2. the CSP nonce;
 *   3. the security headers (they read the nonce);
 *   4. the secret-page headers (share links and sign-in: no referrer, no store);
 *   5. admin answers: no-store;
 *   6. the not-found log's count of a 404 (ADR 054);
 *   7. the analytics' count of a public page shown (ADR 056);
 *   then a stored redirect (ADR 054), then a page-cache hit, else Express.
 *
 * Steps 1-7 only watch or decorate the answer and call `next`; the last three
 * may answer. Express's own middleware (request checks, static files,
 * compression, React Router) is in server/app.ts.
 */
export type Step = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
type Answerer = (req: IncomingMessage, res: ServerResponse, otherwise: () => void) => void;

export interface BeforeExpress {
  /** Steps 1-7 above, in that order. */
  everyAnswer: Step[];
  /** Answers a stored redirect, or calls `otherwise`. */
  redirect: Answerer;
  /** Answers a page-cache hit, or calls `otherwise`; absent when the cache is off. */
  cacheHit?: Answerer;
  log: Logger;
}

/** The server's request handler: every answer's steps, then a redirect, a cache hit or Express. */
export function beforeExpress({ everyAnswer, redirect, cacheHit, log }: BeforeExpress) {
  return function handle(
    req: IncomingMessage,
    res: ServerResponse,
    toExpress: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    const express = () => toExpress(req, res);
    const afterRedirects = cacheHit ? () => cacheHit(req, res, express) : express;
    runSteps(everyAnswer, req, res, () => redirect(req, res, afterRedirects), log);
  };
}

/**
 * Steps 1-3 above, in that order: what every answer gets, the 503 of a
 * process still waiting for its database (server/main.ts) too.
 */
export function loggedAndSecured(
  log: Logger,
  { siteUrl, development }: { siteUrl: string; development: boolean },
): Step[] {
  return [accessLog(log), setNonce, securityHeaders({ secure: siteUrl.startsWith("https:"), development })];
}

/**
 * Runs `steps` in order, then `answer`; a step that fails ends the request
 * with 500.
 */
export function runSteps(
  steps: Step[],
  req: IncomingMessage,
  res: ServerResponse,
  answer: () => void,
  log: Logger,
): void {
  let step = 0;
  const nextStep = (error?: unknown) => {
    if (error) {
      log.error({ err: error }, "request failed before it reached the app");
      res.statusCode = 500;
      res.end();
      return;
    }
    const middleware = steps[step++];
    if (middleware) middleware(req, res, nextStep);
    else answer();
  };
  nextStep();
}
