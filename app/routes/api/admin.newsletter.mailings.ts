import { z } from "zod";
import { listMailings } from "~/server/newsletter/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import { limit, offset, parseQuery } from "~/server/platform/paging.server";
import type { Route } from "./+types/admin.newsletter.mailings";

/**
 * GET /api/admin/newsletter/mailings (ADR 072): the posts e-mailed to the
 * subscribers, newest first, paged: `{id, postId, title, slug, status,
 * recipients, sent, failed, createdAt, finishedAt}`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseQuery(z.object({ limit, offset }), new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { mailings, total } = await listMailings(context.get(dbContext), query.value);
  return Response.json(mailings, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
