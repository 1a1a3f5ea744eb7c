import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed, PUBLIC_CACHE_CONTROL } from "~/server/http.server";
import { findPublicPostBySlug } from "~/server/posts.server";
import type { Route } from "./+types/posts.$slug";

export async function loader({ params }: Route.LoaderArgs) {
  const post = await findPublicPostBySlug(getDb(), params.slug);
  if (!post) return jsonError(404, "Post not found");
  const { contentHtml: _html, ...publicShape } = post;
  return Response.json(publicShape, { headers: { "Cache-Control": PUBLIC_CACHE_CONTROL } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
