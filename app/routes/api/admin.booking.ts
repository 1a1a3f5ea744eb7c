import { parseAvailability } from "~/lib/booking";
import { readAvailability, saveAvailabilityBy } from "~/server/booking/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.booking";

/** GET /api/admin/booking: the owner's availability (ADR 071). */
export async function loader({ context }: Route.LoaderArgs) {
  return Response.json(await readAvailability(context.get(dbContext)), { headers: { "Cache-Control": "no-store" } });
}

/** PUT the availability: 200 with it as saved, or 400 naming each bad field (`field`, `issues`). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const db = context.get(dbContext);
  const parsed = parseAvailability(await readJsonBody(request), await readAvailability(db));
  if (!parsed.ok) {
    const [first] = parsed.issues;
    return Response.json(
      { error: first!.message, field: first!.field, issues: parsed.issues },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  const saved = await saveAvailabilityBy(db, parsed.value, {
    admin: signedInAdmin(context),
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return Response.json(saved, { headers: { "Cache-Control": "no-store" } });
}
