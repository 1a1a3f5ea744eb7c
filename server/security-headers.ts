import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: (error?: unknown) => void) => void;
type WithNonce = http.ServerResponse & { locals: { cspNonce: string } };

/**
 * Every answer's security headers, as `middleware` (helmet) sets them, with
 * the answer's own CSP nonce (`res.locals.cspNonce`).
 *
 * Helmet's headers depend on its configuration (SITE_URL's scheme: HSTS,
 * upgrade-insecure-requests), not on the request. So helmet runs once, here,
 * on a real response whose nonce is a random placeholder, and each answer
 * gets exactly those headers with its nonce where the placeholder stood:
 * helmet's own output, for a fifth of the cost of running it per answer
 * (ADR 024). security-headers.test.ts checks the result against helmet run
 * on each answer.
 */
export function securityHeadersFrom(middleware: Middleware) {
  const placeholder = `nonce-placeholder-${randomBytes(12).toString("hex")}`;
  const req = new http.IncomingMessage(new net.Socket());
  req.method = "GET";
  req.url = "/";
  const res = Object.assign(new http.ServerResponse(req), { locals: { cspNonce: placeholder } });
  let finished = false;
  middleware(req, res, (error) => {
    if (error) throw error instanceof Error ? error : new Error("the security headers failed", { cause: error });
    finished = true;
  });
  if (!finished) throw new Error("the security headers middleware did not finish at once");
  // Node's getRawHeaderNames (15.13+; missing from @types/node): the names as helmet spelled them.
  const names = (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
  const headers = names.map((name) => {
    const value = res.getHeader(name);
    return [name, (Array.isArray(value) ? value.join(", ") : String(value)).split(placeholder)] as const;
  });

  return function setSecurityHeaders(_req: http.IncomingMessage, res: http.ServerResponse, next: () => void) {
    const nonce = (res as WithNonce).locals.cspNonce;
    for (const [name, pieces] of headers) res.setHeader(name, pieces.length === 1 ? pieces[0]! : pieces.join(nonce));
    next();
  };
}
