import { dbContext } from "~/server/platform/context.server";
import { ImageMissingError } from "~/server/images/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import {
  checkedDocument,
  contentNameOf,
  discardDraft,
  DraftConflictError,
  readContentBody,
  readDraft,
  saveDraft,
  versionField,
} from "~/server/pages/index.server";
import type { Route } from "./+types/admin.content.$name.draft";

/**
 * The page's draft (ADR 053): GET (404 when none), PUT
 * `{document, baseVersion, overDraftVersion}` to save it (a whole, valid
 * document; 409 `{error, draftVersion}` when the draft changed since
 * `overDraftVersion`; 409 `{error}` when it starts using an upload that was
 * deleted), DELETE to discard it. Visitors never see a draft.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const draft = await readDraft(context.get(dbContext), contentNameOf(params.name));
  if (!draft) return jsonError(404, "This page has no draft");
  return Response.json(draft);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const name = contentNameOf(params.name);
  const db = context.get(dbContext);
  switch (request.method) {
    case "PUT": {
      const body = await readContentBody(request);
      const baseVersion = versionField(body.baseVersion, "baseVersion");
      const overDraftVersion = versionField(body.overDraftVersion, "overDraftVersion");
      const document = checkedDocument(name, body.document);
      try {
        return Response.json(await saveDraft(db, name, { document, baseVersion, overDraftVersion, by: admin.email }));
      } catch (error) {
        if (error instanceof DraftConflictError)
          return Response.json({ error: error.message, draftVersion: error.draftVersion }, { status: 409 });
        if (error instanceof ImageMissingError) return jsonError(409, error.message);
        throw error;
      }
    }
    case "DELETE":
      await discardDraft(db, name);
      return new Response(null, { status: 204 });
    default:
      return methodNotAllowed(["GET", "PUT", "DELETE"]);
  }
}
