import { signedInAdmin } from "~/server/identity/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { deleteImage, describeUse } from "~/server/images/index.server";
import { getLogger } from "~/server/platform/logger.server";
import type { Route } from "./+types/admin.images.$id";

export function loader() {
  return methodNotAllowed(["DELETE"]);
}

/**
 * DELETE /api/admin/images/{id} (the upload's SHA-256, as in its URLs): 204
 * deleted with its variants; 404 unknown; 409 while a post uses it (ADR 036).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const deletion = await deleteImage(context.get(dbContext), params.id);
  switch (deletion.status) {
    case "deleted":
      getLogger().info({ image: params.id, by: admin.email }, "image deleted");
      return new Response(null, { status: 204 });
    case "missing":
      return jsonError(404, "Image not found");
    case "used":
      return jsonError(409, describeUse(deletion));
  }
}
