import { getDb } from "~/server/db/index.server";
import { methodNotAllowed, parsePageParams, PUBLIC_CACHE_CONTROL } from "~/server/http.server";
import { countPublicPosts, listPublicPosts } from "~/server/public-posts.server";
import type { Route } from "./+types/posts";

export async function loader({ request }: Route.LoaderArgs) {
  const page = parsePageParams(new URL(request.url));
  if (page instanceof Response) return page;
  const db = getDb();
  const now = new Date();
  const [posts, total] = await Promise.all([listPublicPosts(db, { ...page, now }), countPublicPosts(db, now)]);
  return Response.json(posts, {
    headers: { "X-Total-Count": String(total), "Cache-Control": PUBLIC_CACHE_CONTROL },
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
