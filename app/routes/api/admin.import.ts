import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { listImports, parseImportListQuery, receiveImport } from "~/server/import/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.import";

/**
 * POST /api/admin/import (ADR 074): a WordPress (WXR) or Ghost (JSON)
 * export as the multipart file field `file`, with `siteUrl` optional (the
 * old site's address, for a Ghost export's images): 202 `{id}`, the work
 * goes on as a job. GET lists the imports' reports, newest first, paged.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseImportListQuery(new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { items, total } = await listImports(context.get(dbContext), query.value);
  return Response.json(items, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const { id } = await receiveImport(context.get(dbContext), request, { by: admin.email });
  await recordAudit({
    action: "posts-import-started",
    admin,
    target: id,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return Response.json({ id }, { status: 202, headers: { "Cache-Control": "no-store" } });
}
