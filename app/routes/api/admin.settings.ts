import { parseSettingsInput } from "~/lib/site-settings";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import { readSiteSettings, saveSiteSettings } from "~/server/settings/index.server";
import type { Route } from "./+types/admin.settings";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

/** GET and PUT /api/admin/settings (docs/product/contract.md#settings, ADR 034). */
export async function loader({ context }: Route.LoaderArgs) {
  return Response.json(await readSiteSettings(context.get(dbContext)), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const body = await readJsonBody(request);
  const db = context.get(dbContext);
  const parsed = parseSettingsInput(body, await readSiteSettings(db));
  if (!parsed.ok) {
    const [first] = parsed.issues;
    return Response.json(
      { error: first!.message, field: first!.field, issues: parsed.issues },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  const saved = await saveSiteSettings(db, parsed.value);
  await recordAudit({ action: "settings-changed", admin, request, clientAddress: context.get(clientAddressContext) });
  return Response.json(saved, { headers: { "Cache-Control": "no-store" } });
}
