import { analyticsReport, parseRange } from "~/server/analytics/index.server";
import { leadsBySource } from "~/server/messages/index.server";
import { connectionContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.analytics";

/**
 * GET /api/admin/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD (UTC days, at most
 * 366; without both, the last 30 days): `{totals: {views, visitors},
 * days: [{date, views, visitors}], pages: [{path, views}], referrers:
 * [{source, visitors}]}` and the dashboard's campaigns, devices and contact
 * messages (ADR 056; docs/api.md), and the leads received in the range per
 * source and status, `leads: [{source, total, new, contacted, qualified,
 * won, lost}]` (ADR 070): the messages domain's, added here, since the
 * analytics do not read the inbox. 400 for a bad range.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const range = parseRange(new URL(request.url).searchParams);
  if (!range.ok) return jsonError(400, range.message);
  const db = context.get(dbContext);
  const { from, to } = range.value;
  const [report, leads] = await Promise.all([
    analyticsReport(context.get(connectionContext), range.value),
    leadsBySource(db, from, to),
  ]);
  return Response.json(
    { ...report, leads },
    {
      headers: { "Cache-Control": "no-store" },
    },
  );
}

export function action() {
  return methodNotAllowed(["GET"]);
}
