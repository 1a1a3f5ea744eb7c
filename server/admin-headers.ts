import type { IncomingMessage, ServerResponse } from "node:http";
import onHeaders from "on-headers";
import { decodedPath } from "~/lib/secret-paths";

/**
 * Admin answers are kept by no cache (ADR 047): the inbox, the
 * administrators with a live invitation link, the audit log, a 2FA secret
 * being set up. One rule here rather than a header per route, so that every
 * kind of answer gets it: the document, React Router's `.data` requests of
 * client navigation, redirects, error pages and the API's JSON alike.
 */
export const ADMIN_CACHE_CONTROL = "no-store";

/**
 * Whether a request URL is the admin's: /admin and everything under it (the
 * sign-in, setup and invitation pages too), `/admin.data`, and the admin and
 * sign-in API. Spelled as React Router matches it (decoded, any case); not
 * /administrators or /admin-x, which only the public catch-all answers.
 */
export function isAdminPath(url: string): boolean {
  const path = decodedPath(url);
  return (
    path === "/admin" ||
    path === "/admin.data" ||
    path.startsWith("/admin/") ||
    path === "/api/admin" ||
    path.startsWith("/api/admin/") ||
    path.startsWith("/api/auth/")
  );
}

/** Sets ADMIN_CACHE_CONTROL as the headers are written, replacing whatever a route set. */
export function adminNoStore(req: IncomingMessage, res: ServerResponse, next: () => void) {
  if (req.url && isAdminPath(req.url)) {
    onHeaders(res, () => res.setHeader("Cache-Control", ADMIN_CACHE_CONTROL));
  }
  next();
}
