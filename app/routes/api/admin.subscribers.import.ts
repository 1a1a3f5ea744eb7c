import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { importSubscribersCsv, SUBSCRIBER_IMPORT_LIMITS } from "~/server/newsletter/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { BODY_LIMITS, isStorableText, jsonError, methodNotAllowed, readJsonBody } from "~/server/platform/http.server";
import type { Route } from "./+types/admin.subscribers.import";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/admin/subscribers/import {csv, consented} (ADR 072): adds the
 * file's addresses that are not on the list yet, confirmed when `consented`
 * is true (the owner vouches that these people asked for the newsletter),
 * else pending, each with a confirmation e-mail. 200 `{added, confirmed,
 * pending, skipped, problems}`; a bad line is named and skipped.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJsonBody(request, BODY_LIMITS.json);
  const { csv, consented } = (body ?? {}) as { csv?: unknown; consented?: unknown };
  if (typeof csv !== "string") return jsonError(400, "csv must be the file's text");
  if (csv.length > SUBSCRIBER_IMPORT_LIMITS.bytes) return jsonError(400, "The file is too large (1 MB at most)");
  if (!isStorableText(csv)) return jsonError(400, "The file holds a character that cannot be stored (a NUL?)");
  if (typeof consented !== "boolean") return jsonError(400, "consented must be true or false");
  const result = await importSubscribersCsv(context.get(dbContext), csv, consented);
  if (result.added > 0)
    await recordAudit({
      action: "subscribers-imported",
      admin,
      target: `${result.added} subscribers${consented ? " (consented)" : ""}`,
      request,
      clientAddress: context.get(clientAddressContext),
    });
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
}
