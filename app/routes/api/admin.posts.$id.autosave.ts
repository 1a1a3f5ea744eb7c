import { signedInAdmin } from "~/server/identity/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import {
  EDIT_CONFLICT_MESSAGE,
  parseBaseUpdatedAt,
  postInputSchema,
  deleteAutosave,
  readAutosave,
  writeAutosave,
  findPostById,
} from "~/server/posts/index.server";
import type { Route } from "./+types/admin.posts.$id.autosave";

/**
 * The signed-in administrator's autosaved draft of the post (ADR 043): GET
 * (404 when none), PUT to replace it, DELETE to drop it. Never changes the
 * post, its revisions or what visitors see.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const draft = await readAutosave(context.get(dbContext), params.id, admin.id);
  if (!draft) return jsonError(404, "No autosaved draft");
  return Response.json(draft, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const db = context.get(dbContext);
  switch (request.method) {
    case "PUT": {
      const body = await readJsonBody(request);
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        return jsonError(400, "Request body must be a JSON object");
      }
      // A draft may be incomplete: the fields' bounds apply, not the required fields.
      const input = postInputSchema.safeParse(body);
      if (!input.success) return jsonError(400, input.error.issues[0]!.message);
      const base = parseBaseUpdatedAt(body);
      if (!base.ok) return jsonError(400, base.message);
      const post = await findPostById(db, params.id);
      if (!post) return jsonError(404, "Post not found");
      const draft = await writeAutosave(db, params.id, admin.id, input.data, base.value ?? post.updatedAt);
      if (!draft) return jsonError(404, "Post not found");
      if (draft === "stale") {
        return Response.json({ error: EDIT_CONFLICT_MESSAGE, updatedAt: post.updatedAt }, { status: 409 });
      }
      return Response.json(draft);
    }
    case "DELETE":
      await deleteAutosave(db, params.id, admin.id);
      return new Response(null, { status: 204 });
    default:
      return methodNotAllowed(["GET", "PUT", "DELETE"]);
  }
}
