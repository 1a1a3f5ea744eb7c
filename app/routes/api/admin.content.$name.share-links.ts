import { pageSharePath } from "~/lib/site-content-pages";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import {
  contentNameOf,
  createPageShareLink,
  listPageShareLinks,
  PageShareLinkError,
} from "~/server/pages/index.server";
import type { Route } from "./+types/admin.content.$name.share-links";
import { clientAddressContext, configContext, dbContext } from "~/server/platform/context.server";

/**
 * The page's share links (ADR 053): GET `{links}` (never their secret), POST
 * to make one: 201 `{id, url, createdAt, expiresAt}`, the URL shown only here.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  return Response.json({ links: await listPageShareLinks(context.get(dbContext), contentNameOf(params.name)) });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const name = contentNameOf(params.name);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  try {
    const link = await createPageShareLink(context.get(dbContext), name, admin);
    await recordAudit({
      action: "page-share-link-created",
      admin,
      target: name,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    const url = `${context.get(configContext).siteUrl}${pageSharePath(name, link.token)}`;
    return Response.json({ id: link.id, url, createdAt: link.createdAt, expiresAt: link.expiresAt }, { status: 201 });
  } catch (error) {
    if (error instanceof PageShareLinkError) return Response.json({ error: error.message }, { status: 409 });
    throw error;
  }
}
