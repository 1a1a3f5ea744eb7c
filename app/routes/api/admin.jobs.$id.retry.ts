import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { retryJob } from "~/server/jobs/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.jobs.$id.retry";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/admin/jobs/{id}/retry: a failed job queued again with fresh attempts: `{id, kind, status}`; 404 if none failed. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const job = await retryJob(context.get(dbContext), params.id);
  if (!job) return jsonError(404, "No failed job with this id");
  await recordAudit({
    action: "job-retried",
    admin: signedInAdmin(context),
    target: job.kind,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return Response.json(job, { headers: { "Cache-Control": "no-store" } });
}
