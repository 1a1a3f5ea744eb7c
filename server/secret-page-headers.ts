import type { IncomingMessage, ServerResponse } from "node:http";
import onHeaders from "on-headers";
import { isPreviewPath, PREVIEW_HEADERS } from "~/lib/share-links";
import { hasSecretAddress, isSignedLinkPath } from "~/lib/secret-paths";

/** What a page whose address holds a secret adds: the address is never sent on as a referrer. */
const SECRET_ADDRESS_HEADERS = { "Referrer-Policy": "no-referrer" } as const;

/**
 * Answers of pages whose own address holds a secret, whatever renders them
 * (the page, or the root error boundary's 404, whose route sets no headers),
 * set as the headers are written, so they replace the site's Referrer-Policy
 * and any Cache-Control rather than joining them:
 * - a share link's (ADR 044), a booking's link's (ADR 071) and a
 *   subscriber's links' (ADR 072):
 *   PREVIEW_HEADERS, kept by no cache, indexed by no search engine, no
 *   referrer;
 * - an invitation's and the setup page's (ADR 048): no referrer, so neither
 *   the page's own asset requests nor a link followed from it carry the token
 *   in a Referer header (to a proxy's log, or to another site).
 */
export function secretPageHeaders(req: IncomingMessage, res: ServerResponse, next: () => void) {
  const headers =
    req.url === undefined
      ? undefined
      : isPreviewPath(req.url) || isSignedLinkPath(req.url)
        ? PREVIEW_HEADERS
        : hasSecretAddress(req.url)
          ? SECRET_ADDRESS_HEADERS
          : undefined;
  if (headers) {
    onHeaders(res, () => {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    });
  }
  next();
}
