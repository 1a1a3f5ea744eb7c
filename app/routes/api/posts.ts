import { connectionContext } from "~/server/platform/context.server";
import { siteDate } from "~/server/platform/clock.server";
import { methodNotAllowed, PUBLIC_CACHE_CONTROL } from "~/server/platform/http.server";
import { parsePageParams } from "~/server/platform/paging.server";
import { currentListShape, listPublicPosts } from "~/server/posts/index.server";
import type { Route } from "./+types/posts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = parsePageParams(new URL(request.url));
  if (page instanceof Response) return page;
  const connection = context.get(connectionContext);
  const now = siteDate();
  const shape = await currentListShape(connection, now);
  const posts = await listPublicPosts(connection.db, { ...page, now, shape });
  return Response.json(posts, {
    headers: { "X-Total-Count": String(shape.total), "Cache-Control": PUBLIC_CACHE_CONTROL },
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
