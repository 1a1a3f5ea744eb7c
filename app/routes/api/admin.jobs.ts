import { listFailedJobs, parseJobListQuery } from "~/server/jobs/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.jobs";

/**
 * GET /api/admin/jobs?status=failed: the failed jobs (ADR 067), most
 * recently failed first, paged like the other admin lists:
 * `{id, kind, error, attempts, failedAt, createdAt}`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseJobListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { jobs, total } = await listFailedJobs(context.get(dbContext), query.value);
  return Response.json(jobs, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
