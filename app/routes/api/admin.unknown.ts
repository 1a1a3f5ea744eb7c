import { requireAdminApi } from "~/server/identity/index.server";
import { jsonError } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.unknown";

// Every /api/admin/* path answers 401 without a session, known or not.
async function notFound({ request }: Route.LoaderArgs | Route.ActionArgs) {
  await requireAdminApi(request);
  return jsonError(404, "Not found");
}

export { notFound as loader, notFound as action };
