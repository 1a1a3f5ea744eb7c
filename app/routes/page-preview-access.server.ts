import type { Db } from "~/server/db/db.server";
import { requireAdminPage } from "~/server/identity/index.server";
import { isLivePageShareLink } from "~/server/pages/index.server";
import type { ContentName } from "~/lib/site-content";

/**
 * Who may see a page's preview (ADR 053): without a token, a signed-in
 * administrator (else the sign-in page); with one, anyone holding a live
 * share link of one of the page's documents (else a 404).
 */
export async function requirePagePreview(
  request: Request,
  db: Db,
  names: ContentName[],
  token: string | undefined,
): Promise<void> {
  if (token === undefined) await requireAdminPage(request);
  else if (!(await isLivePageShareLink(db, names, token))) throw new Response("Not found", { status: 404 });
}
