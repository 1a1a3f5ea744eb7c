import { analyticsReport, parseRange } from "~/server/analytics/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.analytics";

/**
 * GET /api/admin/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD (UTC days, at most
 * 366; without both, the last 30 days): `{totals: {views, visitors},
 * days: [{date, views, visitors}], pages: [{path, views}], referrers:
 * [{source, visitors}]}` and the dashboard's campaigns, devices and contact
 * messages (ADR 056; docs/api.md). 400 for a bad range.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const range = parseRange(new URL(request.url).searchParams);
  if (!range.ok) return jsonError(400, range.message);
  return Response.json(await analyticsReport(context.get(dbContext), range.value), {
    headers: { "Cache-Control": "no-store" },
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
