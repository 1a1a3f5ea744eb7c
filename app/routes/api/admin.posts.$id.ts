import {
  parsePostInput,
  MarkdownRenderError,
  deletePost,
  EditConflictError,
  findPostById,
  SlugTakenError,
  updatePost,
  editConflictResponse,
  parseBaseUpdatedAt,
} from "~/server/posts/index.server";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { ImageMissingError } from "~/server/images/index.server";
import type { Route } from "./+types/admin.posts.$id";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const post = await findPostById(context.get(dbContext), params.id);
  return post ? Response.json(post) : jsonError(404, "Post not found");
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const db = context.get(dbContext);
  switch (request.method) {
    case "PUT": {
      const before = await findPostById(db, params.id);
      if (!before) return jsonError(404, "Post not found");
      const body = await readJsonBody(request);
      const input = parsePostInput(body);
      if (!input.ok) return jsonError(400, input.message);
      // Optional (ADR 043): the updatedAt the editor opened; a stale one is refused with 409.
      const base = parseBaseUpdatedAt(body);
      if (!base.ok) return jsonError(400, base.message);
      try {
        const post = await updatePost(db, params.id, input.value, { by: admin, baseUpdatedAt: base.value });
        if (!post) return jsonError(404, "Post not found");
        const audit = { admin, target: post.slug, request, clientAddress: context.get(clientAddressContext) };
        await recordAudit({ action: "post-updated", ...audit });
        if (post.published !== before.published) {
          await recordAudit({ action: post.published ? "post-published" : "post-unpublished", ...audit });
        }
        return Response.json(post);
      } catch (error) {
        if (error instanceof EditConflictError) return editConflictResponse(error);
        if (error instanceof SlugTakenError || error instanceof ImageMissingError) return jsonError(409, error.message);
        if (error instanceof MarkdownRenderError) return jsonError(error.status, error.message);
        throw error;
      }
    }
    case "DELETE": {
      // ?deleteImages=1: the uploads only this post uses go with it (ADR 036).
      const deleteImages = new URL(request.url).searchParams.get("deleteImages") ?? "0";
      if (deleteImages !== "0" && deleteImages !== "1") return jsonError(400, "deleteImages must be 0 or 1");
      const before = await findPostById(db, params.id);
      if (!before || !(await deletePost(db, params.id, { deleteImages: deleteImages === "1" }))) {
        return jsonError(404, "Post not found");
      }
      await recordAudit({
        action: "post-deleted",
        admin,
        target: before.slug,
        request,
        clientAddress: context.get(clientAddressContext),
      });
      return new Response(null, { status: 204 });
    }
    default:
      return methodNotAllowed(["GET", "PUT", "DELETE"]);
  }
}
