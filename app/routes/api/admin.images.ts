import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { listImages, parseImageListQuery } from "~/server/images/index.server";
import type { Route } from "./+types/admin.images";

/**
 * GET /api/admin/images: the uploads, newest first, paged like the other
 * admin lists (`limit` 1-100, `offset`, `X-Total-Count`); `unused=1` lists
 * only the images no post uses (ADR 036).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseImageListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { images, total } = await listImages(context.get(dbContext), query.value);
  return Response.json(images, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
