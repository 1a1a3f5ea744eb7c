import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { BACKUPS_NOT_CONFIGURED } from "~/lib/backup";
import { recordAudit } from "~/server/audit/index.server";
import { offsiteBackupsWhere, startBackupNow } from "~/server/backup/index.server";
import { checkOwnPassword, PASSWORD_REQUIRED, signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import {
  BODY_LIMITS,
  jsonError,
  methodNotAllowed,
  readFormBody,
  readJsonBody,
  refusedAttempt,
} from "~/server/platform/http.server";
import type { Route } from "./+types/admin.backups.run";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** The password from a JSON body or a form, bounded like the download's (a password is small). */
async function askedPassword(request: Request): Promise<string | undefined> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  let value: unknown;
  if (type === "application/x-www-form-urlencoded")
    value = (await readFormBody(request, BODY_LIMITS.form)).get("password");
  else if (type === "application/json") {
    const body = await readJsonBody(request, BODY_LIMITS.form);
    value = typeof body === "object" && body !== null ? (body as Record<string, unknown>).password : undefined;
  } else if (type !== "")
    throw jsonError(415, "Send your current password as the JSON field password, or as a form field");
  return typeof value === "string" && value.length > 0 && value.length <= MAX_PASSWORD_LENGTH ? value : undefined;
}

/**
 * POST /api/admin/backups/run {password} (JSON or form): one off-site backup
 * now (ADR 076), the same job the schedule runs. 202 `{jobId, created}` (a
 * second click in the same minute gets the first's job, created false);
 * 409 when BACKUP_STORAGE_URL is not set; 400 without the password, 403
 * wrong, 429/503 as for sign-in (ADR 046: the password is asked again, since
 * it sends the whole site to the bucket); an audit entry `backup-run`.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const admin = signedInAdmin(context);
  if (!offsiteBackupsWhere()) return jsonError(409, BACKUPS_NOT_CONFIGURED);
  const password = await askedPassword(request);
  if (!password) return jsonError(400, PASSWORD_REQUIRED);
  const clientAddress = context.get(clientAddressContext);
  const check = await checkOwnPassword(admin, password, clientAddress);
  if (!check.ok) return refusedAttempt(check);
  const job = await startBackupNow(context.get(dbContext));
  await recordAudit({ action: "backup-run", admin, target: "off-site backup", request, clientAddress });
  return Response.json(job, { status: 202, headers: { "Cache-Control": "no-store" } });
}
