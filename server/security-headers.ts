import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import helmet from "helmet";
import { SKIP_INTRO_SCRIPT } from "~/components/site/intro-script";
import { LOAD_ISLANDS_SCRIPT } from "~/islands/load-islands";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: (error?: unknown) => void) => void;
type WithNonce = http.ServerResponse & { locals: { cspNonce: string } };

/** A CSP source allowing one inline script by its content: 'sha256-<base64>'. */
function scriptHashSource(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/**
 * Inline scripts of public pages, allowed by hash (ADR 024): those pages carry
 * no nonce, so the HTML cached for them is the same for every visitor. The
 * landing page's intro check, and every public page's islands loader (ADR 031).
 */
const PUBLIC_INLINE_SCRIPTS = [SKIP_INTRO_SCRIPT, LOAD_ISLANDS_SCRIPT].map(scriptHashSource);

/**
 * A CSP nonce: 16 random bytes, base64, each answer its own. The bytes come
 * from the system's random source 4 KiB at a time (one call for 256 nonces,
 * as Node does for randomUUID) and are never used twice.
 */
const NONCE_BYTES = 16;
let nonceBytes = Buffer.alloc(0);
let nonceOffset = 0;
function cspNonce(): string {
  if (nonceOffset + NONCE_BYTES > nonceBytes.length) {
    nonceBytes = randomBytes(256 * NONCE_BYTES);
    nonceOffset = 0;
  }
  nonceOffset += NONCE_BYTES;
  return nonceBytes.toString("base64", nonceOffset - NONCE_BYTES, nonceOffset);
}

/** Gives the answer its CSP nonce (`res.locals.cspNonce`), read by the headers and by admin pages' scripts. */
export function setNonce(_req: http.IncomingMessage, res: http.ServerResponse, next: () => void) {
  Object.assign(res, { locals: { cspNonce: cspNonce() } });
  next();
}

/**
 * The site's security headers (helmet): a strict CSP with the answer's nonce
 * and the public pages' script hashes, HSTS and upgrade-insecure-requests on
 * an https SITE_URL. In development Vite serves scripts and HMR: no CSP.
 */
export function securityHeaders({ secure, development }: { secure: boolean; development: boolean }) {
  return securityHeadersFrom(
    helmet({
      contentSecurityPolicy: development
        ? false
        : {
            useDefaults: true,
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: [
                "'self'",
                ...PUBLIC_INLINE_SCRIPTS,
                (_req, res) => `'nonce-${(res as WithNonce).locals.cspNonce}'`,
              ],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", "data:", "https:"],
              connectSrc: ["'self'"],
              fontSrc: ["'self'", "data:"],
              frameAncestors: ["'none'"],
              formAction: ["'self'"],
              upgradeInsecureRequests: secure ? [] : null,
            },
          },
      strictTransportSecurity: secure,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    }),
  );
}

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

/**
 * Lets one answer be shown in a frame of the site's own pages: its CSP says
 * `frame-ancestors 'self'` instead of `'none'` (X-Frame-Options is already
 * SAMEORIGIN). For the backup download, whose refusal (a wrong password) the
 * Settings screen reads from the hidden frame it posts its form to. Other
 * sites still cannot frame it.
 */
export function frameableBySelf(res: http.ServerResponse) {
  const policy = res.getHeader("Content-Security-Policy");
  if (typeof policy === "string") {
    res.setHeader("Content-Security-Policy", policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
  }
}
