import { requireAdminApi } from "~/server/auth.server";
import { backupDownload } from "~/server/backup/download.server";
import { methodNotAllowed } from "~/server/http.server";
import type { Route } from "./+types/admin.backup";

/** GET /api/admin/backup: the whole site as one file (ADR 034), what Settings' "Download backup" links to. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminApi(request);
  return backupDownload(admin.email);
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminApi(request);
  return methodNotAllowed(["GET"]);
}
