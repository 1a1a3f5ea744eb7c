import { previewPath, type CreatedShareLink } from "~/lib/share-links";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { createShareLink, listShareLinks, ShareLinksError } from "~/server/posts/index.server";
import type { Route } from "./+types/admin.posts.$id.preview-links";
import { clientAddressContext, configContext, dbContext } from "~/server/platform/context.server";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET /api/admin/posts/{id}/preview-links: 200 `{links}`, the post's live share links (no tokens); 404 unknown post. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const links = await listShareLinks(context.get(dbContext), params.id);
  if (!links) return jsonError(404, "Post not found");
  return Response.json({ links }, { headers: NO_STORE });
}

/** POST: 201 `{id, url, createdAt, expiresAt}`; the URL holds the token and is shown only in this answer. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  try {
    const { token, slug, ...link } = await createShareLink(context.get(dbContext), params.id, admin);
    await recordAudit({
      action: "preview-link-created",
      admin,
      target: slug,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    const created: CreatedShareLink = { ...link, url: `${context.get(configContext).siteUrl}${previewPath(token)}` };
    return Response.json(created, { status: 201, headers: NO_STORE });
  } catch (error) {
    if (error instanceof ShareLinksError) return jsonError(error.status, error.message);
    throw error;
  }
}
