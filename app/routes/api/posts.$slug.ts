import { getDb } from "~/server/db/index.server";
import { jsonError, methodNotAllowed } from "~/server/http.server";
import { findPublicPostBySlug } from "~/server/posts.server";
import type { Route } from "./+types/posts.$slug";

export async function loader({ params }: Route.LoaderArgs) {
  const post = await findPublicPostBySlug(getDb(), params.slug);
  if (!post) return jsonError(404, "Post not found");
  const { contentHtml: _html, ...publicShape } = post;
  return Response.json(publicShape);
}

export function action() {
  return methodNotAllowed(["GET"]);
}
