import { dbContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { jsonError, methodNotAllowed, PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { findPublicPost } from "~/server/posts/index.server";
import type { Route } from "./+types/posts.$slug";

export async function loader({ params, context }: Route.LoaderArgs) {
  const post = await findPublicPost(context.get(dbContext), params.slug, siteDate());
  if (!post) return jsonError(404, "Post not found");
  return Response.json(post, { headers: { "Cache-Control": PUBLIC_CACHE_CONTROL } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
