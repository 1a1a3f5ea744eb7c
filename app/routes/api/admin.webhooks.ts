import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EVENT_NAMES } from "~/lib/events";
import { WEBHOOK_LIMITS } from "~/lib/webhooks";
import { recordAudit } from "~/server/audit/index.server";
import { checkOwnPassword, PASSWORD_REQUIRED, signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { jsonError, methodNotAllowed, readJsonBody, refusedAttempt } from "~/server/platform/http.server";
import { limit, offset, parseQuery } from "~/server/platform/paging.server";
import { createWebhook, listWebhooks, WebhookError } from "~/server/webhooks/index.server";
import type { Route } from "./+types/admin.webhooks";

/** A webhook's body: every length bounded before any check looks at it. */
const body = z.object({
  url: z.string().max(WEBHOOK_LIMITS.url * 2),
  events: z.array(z.string().max(40)).max(EVENT_NAMES.length * 2),
});
const password = z.object({ password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });
const BODY_MESSAGE = `Send a JSON body with url, events (of ${EVENT_NAMES.join(", ")}) and your current password as password`;

/** GET /api/admin/webhooks: oldest first, paged like the other admin lists; never a secret (ADR 068). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseQuery(z.object({ limit, offset }), new URL(request.url));
  if (!query.ok) return jsonError(400, query.message);
  const { webhooks, total } = await listWebhooks(context.get(dbContext), query.value);
  return Response.json(webhooks, { headers: { "X-Total-Count": String(total), "Cache-Control": "no-store" } });
}

/**
 * POST /api/admin/webhooks {url, events, password}: 201 {id, url, events,
 * secret, createdAt}, the secret in this answer only. The password is asked
 * again (ADR 046): a webhook can carry every future lead away. 400 without
 * it or for a refused URL, 403 when wrong; 409 at the limit or without a key.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const json = await readJsonBody(request);
  const parsed = body.safeParse(json);
  if (!parsed.success) return jsonError(400, BODY_MESSAGE);
  const given = password.safeParse(json);
  if (!given.success) return jsonError(400, PASSWORD_REQUIRED);
  const clientAddress = context.get(clientAddressContext);
  const check = await checkOwnPassword(admin, given.data.password, clientAddress);
  if (!check.ok) return refusedAttempt(check);
  try {
    const webhook = await createWebhook(context.get(dbContext), parsed.data);
    await recordAudit({ action: "webhook-added", admin, target: webhook.url, request, clientAddress });
    return Response.json(webhook, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof WebhookError) return jsonError(error.status, error.message);
    throw error;
  }
}
