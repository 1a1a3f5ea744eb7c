import { findImport } from "~/server/import/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.import.$id";

/** GET /api/admin/import/{id} (ADR 074): the import's report, `{status, created, skipped, redirects, problems, ...}`. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const report = await findImport(context.get(dbContext), params.id);
  if (!report) return jsonError(404, "No import with this id");
  return Response.json(report, { headers: { "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
