import { useEffect, useRef } from "react";
import { data, useNavigation } from "react-router";
import { AdminScreen } from "~/components/admin/admin-screen";
import { webhooksText as text } from "~/content/webhooks";
import { WEBHOOK_LIMITS } from "~/lib/webhooks";
import { pageMeta } from "~/lib/seo";
import { dbContext } from "~/server/platform/context.server";
import { formRetryAfter, retryAfterHeaders } from "~/server/platform/http.server";
import { listDeliveries, listWebhooks } from "~/server/webhooks/index.server";
import type { Route } from "./+types/route";
import { webhooksAction } from "./actions.server";
import { AddWebhook } from "./add-webhook";
import { WebhookCard } from "./webhook-card";

/** Deliveries each webhook's log shows (the API pages through all of them). */
const LOG_ROWS = 10;

/** /admin/webhooks: add, list, delete, Send test, and each webhook's delivery log (ADR 068). */
export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const { webhooks } = await listWebhooks(db, { limit: WEBHOOK_LIMITS.webhooks, offset: 0 });
  const logs = await Promise.all(
    webhooks.map((webhook) => listDeliveries(db, webhook.id, { limit: LOG_ROWS, offset: 0 })),
  );
  return { webhooks: webhooks.map((webhook, i) => ({ ...webhook, log: logs[i]! })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { answer, status } = await webhooksAction(request, context);
  const retryAfterSeconds = !answer.ok ? answer.retryAfterSeconds : undefined;
  return data(answer, { status, headers: retryAfterHeaders({ status, retryAfterSeconds }) });
}

/** A throttled or busy password check's Retry-After reaches the page's answer. */
export function headers(args: Route.HeadersArgs) {
  return formRetryAfter(args);
}

export const meta = () => pageMeta({ title: "Webhooks | Blog Admin", noindex: true });

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { webhooks } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : undefined;
  const busyId = navigation.formData?.get("id");
  const notice = useRef<HTMLDivElement>(null);
  // Add's answers show in its own form; the others here, where focus goes so they are read.
  const pageAnswer = actionData && actionData.intent !== "add" ? actionData : undefined;
  useEffect(() => {
    if (pageAnswer) notice.current?.focus();
  }, [pageAnswer]);
  return (
    <AdminScreen width="5xl" title={text.title} intro={text.intro}>
      <div ref={notice} tabIndex={-1} className="mt-4 outline-none">
        <div role="status">
          {pageAnswer?.ok && "done" in pageAnswer && (
            <p className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-green-900">{pageAnswer.done}</p>
          )}
        </div>
        <div role="alert">
          {pageAnswer && !pageAnswer.ok && (
            <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-900">{pageAnswer.error}</p>
          )}
        </div>
      </div>
      <AddWebhook answer={actionData?.intent === "add" ? actionData : undefined} busy={busyIntent === "add"} />
      <section aria-labelledby="webhooks-heading" className="mt-8">
        <h2 id="webhooks-heading" className="text-xl font-semibold">
          {text.listHeading}
        </h2>
        <p aria-live="polite" className="mt-1 text-neutral-700">
          {webhooks.length === 0 ? text.none : text.count(webhooks.length)}
        </p>
        <ul className="mt-3 flex flex-col gap-4">
          {webhooks.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              busy={busyId === webhook.id ? busyIntent : undefined}
              busyDelivery={busyIntent === "redeliver" ? navigation.formData?.get("delivery") : undefined}
            />
          ))}
        </ul>
      </section>
    </AdminScreen>
  );
}
