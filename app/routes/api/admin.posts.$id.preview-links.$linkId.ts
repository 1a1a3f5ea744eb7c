import { SHARE_LINK_TEXT } from "~/lib/share-links";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { revokeShareLink } from "~/server/posts/index.server";
import type { Route } from "./+types/admin.posts.$id.preview-links.$linkId";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

export function loader() {
  return methodNotAllowed(["DELETE"]);
}

/** DELETE /api/admin/posts/{id}/preview-links/{linkId}: 204, the link opens nothing from now on; 404 if no such live link. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const slug = await revokeShareLink(context.get(dbContext), params.id, params.linkId);
  if (slug === undefined) return jsonError(404, SHARE_LINK_TEXT.linkNotFound);
  await recordAudit({
    action: "preview-link-revoked",
    admin,
    target: slug,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return new Response(null, { status: 204 });
}
