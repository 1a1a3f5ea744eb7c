import {
  backupStorage,
  receiveRestoreUpload,
  receiveStoredRestore,
  restoreLeased,
  type Restorer,
} from "~/server/backup/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, configContext, connectionContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.backups.restore";

/**
 * POST /api/admin/backups/restore (ADR 078): replaces the whole site with a
 * backup, after the CLI's checks: a file uploaded as multipart (`password`,
 * then `file`), or a stored backup as JSON `{key, password}`. Answers 200
 * with the restore's summary once it is done; the restore signs everybody
 * out, this administrator too.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const connection = context.get(connectionContext);
  const who: Restorer = { admin: signedInAdmin(context), request, clientAddress: context.get(clientAddressContext) };
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  let lease;
  let label: string;
  if (type === "application/json") {
    const stored = await receiveStoredRestore(connection, who, backupStorage(context.get(configContext)));
    lease = stored.lease;
    label = stored.key;
  } else if (type === "multipart/form-data") {
    let fileName = "";
    lease = await receiveRestoreUpload(connection, who, (name) => (fileName = name.slice(0, 300)));
    label = fileName || "uploaded backup";
  } else {
    return jsonError(415, "Send a backup file as multipart/form-data, or a stored backup's key as JSON");
  }
  const result = await restoreLeased(connection, lease, who, label);
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
}
