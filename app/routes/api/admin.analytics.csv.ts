import { analyticsReport, parseRange, reportCsv } from "~/server/analytics/index.server";
import { connectionContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.analytics.csv";

/** GET /api/admin/analytics.csv?from=&to=: the Analytics screen's numbers as CSV (ADR 056). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const range = parseRange(new URL(request.url).searchParams);
  if (!range.ok) return jsonError(400, range.message);
  const { from, to } = range.value;
  return new Response(`\uFEFF${reportCsv(await analyticsReport(context.get(connectionContext), range.value))}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytics-${from}-to-${to}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
