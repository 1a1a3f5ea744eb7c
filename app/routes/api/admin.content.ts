import type { Route } from "./+types/admin.content";
import { dbContext } from "~/server/platform/context.server";
import { methodNotAllowed } from "~/server/platform/http.server";
import { listContentSummaries } from "~/server/pages/index.server";

/**
 * GET /api/admin/content (ADR 053, docs/api.md#site-content-admin): the
 * editable pages by name, with their published version and whether a draft
 * waits. A fixed, short list: one page, `X-Total-Count` as the other lists.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const documents = await listContentSummaries(context.get(dbContext));

  return Response.json(documents, { headers: { "X-Total-Count": String(documents.length) } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
