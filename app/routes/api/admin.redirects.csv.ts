import { CSV_IMPORT_LIMITS } from "~/lib/redirects";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { isStorableText, jsonError, methodNotAllowed, readBody } from "~/server/platform/http.server";
import { exportRedirectsCsv, importRedirectsCsv } from "~/server/redirects/index.server";
import type { Route } from "./+types/admin.redirects.csv";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

/** GET /api/admin/redirects.csv: every redirect as `from,to,status` lines (ADR 054). */
export async function loader({ context }: Route.LoaderArgs) {
  return new Response(await exportRedirectsCsv(context.get(dbContext)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="redirects.csv"',
      "Cache-Control": "no-store",
    },
  });
}

/**
 * POST /api/admin/redirects.csv with the CSV as the body (at most
 * CSV_IMPORT_LIMITS): 200 `{imported}`, or 400 `{error, problems: [{line,
 * message}]}` and nothing saved.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const text = (await readBody(request, CSV_IMPORT_LIMITS.bytes)).toString("utf8");
  if (!isStorableText(text)) return jsonError(400, "The file holds a character that cannot be stored (a NUL?)");
  const result = await importRedirectsCsv(context.get(dbContext), text);
  if (!result.ok) {
    return Response.json(
      { error: "Nothing was imported: fix these lines", problems: result.problems },
      { status: 400 },
    );
  }
  await recordAudit({
    action: "redirects-imported",
    admin,
    target: `${result.imported} redirects`,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return Response.json({ imported: result.imported }, { headers: { "Cache-Control": "no-store" } });
}
