import type { NextFunction, Request, Response } from "express";
import onHeaders from "on-headers";
import { isSignedLinkPath } from "~/lib/secret-paths";
import { BODY_LIMITS } from "~/server/platform/http.server";

// The checks that refuse a request before any route runs (ADR 023). Each can
// only refuse a request with a body or a method other than GET and HEAD, which
// the page cache never answers, so they run in Express (ADR 024).

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The methods the site answers; anything else (TRACE, CONNECT, made-up ones) is a 405 before any route runs. */
const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The Fetch API behind React Router refuses TRACE and CONNECT outright (it would be a 500). */
export function refuseUnknownMethods(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_METHODS.includes(req.method)) return next();
  res.set("Allow", KNOWN_METHODS.join(", "));
  res.status(405).json({ error: "Method not allowed" });
}

/**
 * CSRF defence (docs/product/contract.md#cross-origin-writes): a state-changing request from another origin
 * is refused. Browsers send Origin on cross-origin writes, and Sec-Fetch-Site
 * where Origin is missing; tools such as curl send neither and are allowed.
 * A form posted from a page whose Referrer-Policy is no-referrer (a booking's
 * link, ADR 071) carries `Origin: null` even to its own site (the Fetch
 * standard's rule for navigations); the browser's Sec-Fetch-Site, which no
 * page can set, then says whether it came from this site. Safari before 16.4
 * sends no Sec-Fetch-Site: its `Origin: null` is taken on a signed link's
 * own path (a booking's, a subscriber's), whose write is authorised by the
 * token in that path and never by a cookie, so no other page can forge it
 * without already holding what the write needs.
 */
export function refuseCrossOriginWrites(siteOrigin: string) {
  /** Whether a write came from another origin, by the headers only a browser sets. */
  const fromElsewhere = (req: Request): boolean => {
    const origin = req.get("origin");
    const fetchSite = req.get("sec-fetch-site");
    if (origin === "null") {
      if (fetchSite === undefined) return !isSignedLinkPath(req.originalUrl);
      return fetchSite !== "same-origin";
    }
    if (origin) return origin !== siteOrigin && origin !== `${req.protocol}://${req.get("host")}`;
    return fetchSite === "cross-site";
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (fromElsewhere(req)) {
      res.status(403).json({ error: "Cross-origin request refused" });
      return;
    }
    next();
  };
}

/** The largest body a path takes: an image upload, an export to import (the API's and the screen's), a backup to restore, else JSON's. */
function bodyLimitOf(path: string): number {
  if (path === "/api/admin/upload") return BODY_LIMITS.upload;
  if (path === "/api/admin/import" || path === "/admin/import" || path === "/admin/import.data")
    return BODY_LIMITS.import;
  if (path === "/api/admin/backups/restore") return BODY_LIMITS.restore;
  return BODY_LIMITS.json;
}

/**
 * Refuses a declared body over the limit before anything reads it (the rest
 * is dropped, then the connection closed: dropUnreadBody); bodies without a
 * length are capped where they are read.
 */
export function limitDeclaredBodySize(req: Request, res: Response, next: NextFunction) {
  const limit = bodyLimitOf(req.path.toLowerCase());
  const declared = Number(req.get("content-length") ?? 0);
  if (declared > limit) {
    res.set("Connection", "close");
    res.status(413).json({ error: `Request body is too large (${limit} bytes at most)` });
    return;
  }
  next();
}

/** How long the rest of a refused body is read and dropped before the connection is cut. */
const UNREAD_BODY_LINGER_MS = 2_000;
/**
 * A declared body this small is simply read to its end and dropped, and the
 * connection kept: an answer often starts before a small body's last packet
 * (a 429 for a contact message), and closing for it would cost every such
 * client a new connection.
 */
const SMALL_BODY_BYTES = 64 * 1024;

const smallBodyDeclared = (req: Request) => Number(req.get("content-length") ?? Number.NaN) <= SMALL_BODY_BYTES;

/**
 * When an answer starts before its request's body has arrived whole (a 413,
 * a 401 before an upload, a 405 from a route that reads no body), it says
 * `Connection: close` unless the body is declared small; once it is sent, the
 * rest of the body is read and dropped, not kept, and a client still sending
 * after UNREAD_BODY_LINGER_MS is cut off.
 *
 * With `Connection: close` Node destroys the socket as soon
 * as the answer is flushed; with the body still arriving, that sends a reset
 * which can reach the client before it has read its 413. So the socket only
 * half-closes (the answer and a FIN go out) and lingers, dropping what comes,
 * until the client stops or the time is up: a "lingering close", as HTTP
 * servers do. (If Node stops registering `destroy` that way, removing it is a
 * no-op and the hostile-input tests see the resets again.)
 */
export function dropUnreadBody(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  onHeaders(res, () => {
    if (!req.complete && !smallBodyDeclared(req)) res.setHeader("Connection", "close");
  });
  res.once("finish", () => {
    if (req.complete) return;
    const socket = req.socket;
    // Whatever was reading it (a route that stopped at its limit) is done.
    req.removeAllListeners("data");
    req.resume();
    const cutOff = setTimeout(() => socket.destroy(), UNREAD_BODY_LINGER_MS);
    cutOff.unref();
    if (String(res.getHeader("connection")).toLowerCase() !== "close") {
      // Kept alive: the rest arrives, then the next request on this connection.
      // (No listener goes on the socket, which outlives many requests.)
      req.once("end", () => clearTimeout(cutOff));
      return;
    }
    // Node registered this very function as the listener; it is looked up, not called.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- removing a listener by identity, never calling it unbound
    socket.removeListener("finish", socket.destroy);
    const done = () => {
      clearTimeout(cutOff);
      if (socket.writableEnded) socket.destroy();
    };
    req.once("end", done);
    socket.once("end", done);
    socket.once("close", () => clearTimeout(cutOff));
  });
  next();
}
