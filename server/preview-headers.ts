import type { IncomingMessage, ServerResponse } from "node:http";
import onHeaders from "on-headers";
import { isPreviewPath, PREVIEW_HEADERS } from "~/lib/preview-links";

/**
 * A share link's answers (ADR 044), whatever renders them (the page, or the
 * root error boundary's 404 for a dead token, whose route sets no headers):
 * PREVIEW_HEADERS, set as the headers are written, so they replace the site's
 * Referrer-Policy and any Cache-Control rather than joining them.
 */
export function previewLinkHeaders(req: IncomingMessage, res: ServerResponse, next: () => void) {
  if (req.url && isPreviewPath(req.url)) {
    onHeaders(res, () => {
      for (const [name, value] of Object.entries(PREVIEW_HEADERS)) res.setHeader(name, value);
    });
  }
  next();
}
