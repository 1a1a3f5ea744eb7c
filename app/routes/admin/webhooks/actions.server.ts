import type { RouterContextProvider } from "react-router";
import { webhooksText as text } from "~/content/webhooks";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { EVENT_NAMES } from "~/lib/events";
import { WEBHOOK_LIMITS } from "~/lib/webhooks";
import { recordAudit } from "~/server/audit/index.server";
import { checkOwnPassword, PASSWORD_MISSING, signedInAdmin } from "~/server/identity/index.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import { readFormBody } from "~/server/platform/http.server";
import { createWebhook, deleteWebhook, redeliver, sendTest, WebhookError } from "~/server/webhooks/index.server";

/**
 * The Webhooks screen's action (ADR 051): add (with the password, ADR 046),
 * delete, Send test and Redeliver, from urlencoded forms; the checks are
 * the domain's, as for the API. Each answers what the screen shows.
 */

export type WebhooksAnswer =
  | { intent: "add"; ok: true; url: string; secret: string }
  | { intent: string; ok: true; done: string }
  | {
      intent: string;
      ok: false;
      error: string;
      /** A refused password belongs beside its field; the typed URL and events stay. */
      field?: "password";
      url?: string;
      events?: string[];
      retryAfterSeconds?: number;
    };

export async function webhooksAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ answer: WebhooksAnswer; status: number }> {
  const admin = signedInAdmin(context);
  const clientAddress = context.get(clientAddressContext);
  const db = context.get(dbContext);
  const form = await readFormBody(request);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "").slice(0, 64);
  try {
    if (intent === "add") {
      const url = String(form.get("url") ?? "").slice(0, WEBHOOK_LIMITS.url + 1);
      const events = form
        .getAll("events")
        .slice(0, EVENT_NAMES.length)
        .map((event) => String(event).slice(0, 40));
      const typed = { intent, ok: false as const, url, events };
      if (events.length === 0) return { answer: { ...typed, error: text.noEvents }, status: 400 };
      const password = String(form.get("password") ?? "").slice(0, MAX_PASSWORD_LENGTH);
      const check = password
        ? await checkOwnPassword(admin, password, clientAddress)
        : { ok: false as const, status: 400, error: PASSWORD_MISSING };
      if (!check.ok) {
        const retryAfterSeconds = "retryAfterSeconds" in check ? check.retryAfterSeconds : undefined;
        return { answer: { ...typed, error: check.error, field: "password", retryAfterSeconds }, status: check.status };
      }
      try {
        const webhook = await createWebhook(db, { url, events });
        await recordAudit({ action: "webhook-added", admin, target: webhook.url, request, clientAddress });
        return { answer: { intent, ok: true, url: webhook.url, secret: webhook.secret }, status: 200 };
      } catch (error) {
        if (error instanceof WebhookError) return { answer: { ...typed, error: error.message }, status: error.status };
        throw error;
      }
    }
    if (intent === "delete") {
      const url = await deleteWebhook(db, id);
      if (url === undefined) return { answer: { intent, ok: false, error: text.gone }, status: 404 };
      await recordAudit({ action: "webhook-deleted", admin, target: url, request, clientAddress });
      return { answer: { intent, ok: true, done: text.deleted(url) }, status: 200 };
    }
    if (intent === "test") {
      const url = String(form.get("url") ?? "").slice(0, WEBHOOK_LIMITS.url);
      const delivery = await sendTest(db, id);
      return {
        answer: { intent, ok: true, done: text.testSent(url, delivery.status, delivery.lastStatusCode) },
        status: 200,
      };
    }
    if (intent === "redeliver") {
      const delivery = await redeliver(db, id, String(form.get("delivery") ?? "").slice(0, 64));
      return {
        answer: { intent, ok: true, done: text.redelivered(delivery.status, delivery.lastStatusCode) },
        status: 200,
      };
    }
    return { answer: { intent, ok: false, error: "Unknown action" }, status: 400 };
  } catch (error) {
    if (error instanceof WebhookError)
      return { answer: { intent, ok: false, error: error.message }, status: error.status };
    throw error;
  }
}
