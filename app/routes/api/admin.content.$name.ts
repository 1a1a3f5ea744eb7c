import { recordAudit } from "~/server/audit/index.server";
import { ImageMissingError } from "~/server/images/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import {
  checkedDocument,
  ContentConflictError,
  contentEtag,
  contentNameOf,
  ifMatchVersion,
  publishContent,
  readContentBody,
  readPublished,
} from "~/server/pages/index.server";
import type { Route } from "./+types/admin.content.$name";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

/**
 * GET and PUT /api/admin/content/{name} (ADR 053, docs/api.md#site-content-admin).
 * GET answers the document the public page shows now, its version as the
 * ETag. PUT takes a whole document, checks it (400 naming the first bad
 * field, nothing saved) and publishes it: the version it replaces is kept,
 * and every process shows the new one on its next request. With `If-Match`
 * it answers 409 when another version was published since; a document that
 * starts using an upload that was deleted is a 409 too; with
 * `?discardDraft=1` the page's draft goes with the publish (the editor).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const name = contentNameOf(params.name);
  const published = await readPublished(context.get(dbContext), name);
  return Response.json(published.document, { headers: { ETag: contentEtag(published.version) } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const name = contentNameOf(params.name);
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const baseVersion = ifMatchVersion(request);
  const document = checkedDocument(name, await readContentBody(request));
  const discardDraft = new URL(request.url).searchParams.get("discardDraft") === "1";
  try {
    const published = await publishContent(context.get(dbContext), name, document, {
      by: admin.email,
      baseVersion,
      discardDraft,
    });
    await recordAudit({
      action: "page-published",
      admin,
      target: `${name} (version ${published.version})`,
      request,
      clientAddress: context.get(clientAddressContext),
    });
    return Response.json(published.document, { headers: { ETag: contentEtag(published.version) } });
  } catch (error) {
    if (error instanceof ContentConflictError)
      return Response.json({ error: error.message, version: error.version }, { status: 409 });
    if (error instanceof ImageMissingError) return jsonError(409, error.message);
    throw error;
  }
}
