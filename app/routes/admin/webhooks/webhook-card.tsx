import { useRef, useState } from "react";
import { Form } from "react-router";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";
import { webhooksText as text } from "~/content/webhooks";
import { formatDate } from "~/lib/dates";
import type { DeliveryItem, WebhookItem } from "~/lib/webhooks";

const dateTime = (iso: string) => `${formatDate(iso)}, ${iso.slice(11, 19)} UTC`;

const buttonClass = "min-h-10 rounded-md border px-3 py-1.5 text-sm font-medium disabled:opacity-60";

const statusClass = {
  delivered: "text-green-800",
  failed: "text-red-800",
  pending: "text-amber-900",
} as const;

/** One webhook: its URL and events, Send test, Delete (asked first), and its newest deliveries. */
export function WebhookCard({
  webhook,
  busy,
  busyDelivery,
}: {
  webhook: WebhookItem & { log: { deliveries: DeliveryItem[]; total: number } };
  /** The intent of this webhook's form on its way, if any. */
  busy: FormDataEntryValue | null | undefined;
  busyDelivery: FormDataEntryValue | null | undefined;
}) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const logId = `log-${webhook.id}`;
  return (
    <li className="rounded-lg border border-neutral-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-[1_1_18rem]">
          <p className="font-mono text-sm font-semibold break-all">{webhook.url}</p>
          <p className="mt-1 text-sm text-neutral-700">
            {text.eventsOf}: {webhook.events.join(", ")} · {text.added(formatDate(webhook.createdAt))}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Form method="post">
            <input type="hidden" name="id" value={webhook.id} />
            <input type="hidden" name="url" value={webhook.url} />
            <button
              type="submit"
              name="intent"
              value="test"
              aria-label={text.sendTestLabel(webhook.url)}
              disabled={busy === "test"}
              className={`${buttonClass} border-brand-700 text-brand-800 hover:bg-brand-50`}
            >
              {busy === "test" ? text.sending : text.sendTest}
            </button>
          </Form>
          <button
            type="button"
            aria-label={text.removeLabel(webhook.url)}
            aria-haspopup="dialog"
            onClick={() => setConfirming(true)}
            className={`${buttonClass} border-red-300 text-red-800 hover:bg-red-50`}
          >
            {text.remove}
          </button>
        </div>
      </div>
      <DeliveryLog webhook={webhook} logId={logId} busyDelivery={busyDelivery} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        focusOnOpen={() => cancel.current?.focus()}
        title={text.confirmTitle}
        description={text.confirmRemove(webhook.url)}
      >
        <Form method="post" className="mt-4" onSubmit={() => setConfirming(false)}>
          <input type="hidden" name="id" value={webhook.id} />
          <input type="hidden" name="intent" value="delete" />
          <DialogActions cancelRef={cancel}>
            <DialogAction tone="danger" type="submit" disabled={busy === "delete"}>
              {busy === "delete" ? text.removing : text.remove}
            </DialogAction>
          </DialogActions>
        </Form>
      </ConfirmDialog>
    </li>
  );
}

/** The newest deliveries, a line each: event, status and attempts, the answer's code, the time; Redeliver when settled. */
function DeliveryLog({
  webhook,
  logId,
  busyDelivery,
}: {
  webhook: WebhookItem & { log: { deliveries: DeliveryItem[]; total: number } };
  logId: string;
  busyDelivery: FormDataEntryValue | null | undefined;
}) {
  const { deliveries, total } = webhook.log;
  return (
    <section aria-labelledby={logId} className="mt-4">
      <h3 id={logId} className="text-base font-semibold">
        {text.logHeading(webhook.url)}
      </h3>
      {deliveries.length === 0 ? (
        <p className="mt-1 text-sm text-neutral-700">{text.logEmpty}</p>
      ) : (
        <>
          <ul aria-labelledby={logId} className="mt-2 flex flex-col divide-y divide-neutral-200 text-sm">
            {deliveries.map((delivery) => {
              const time = dateTime(delivery.lastAttemptAt ?? delivery.createdAt);
              return (
                <li key={delivery.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
                  <span className="min-w-[9rem] font-mono">{delivery.event}</span>
                  <span className={`min-w-[9rem] font-medium ${statusClass[delivery.status]}`}>
                    {text.statuses[delivery.status]}{" "}
                    <span className="font-normal text-neutral-700">({text.attempts(delivery.attempts)})</span>
                  </span>
                  <span className="min-w-[6rem]" title={delivery.lastError ?? undefined}>
                    {text.columns.code} {delivery.lastStatusCode ?? text.noAnswer}
                  </span>
                  <span className="text-neutral-800">{time}</span>
                  {delivery.status !== "pending" && (
                    <Form method="post" className="sm:ml-auto">
                      <input type="hidden" name="id" value={webhook.id} />
                      <input type="hidden" name="delivery" value={delivery.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="redeliver"
                        aria-label={text.redeliverLabel(delivery.event, time)}
                        disabled={busyDelivery === delivery.id}
                        className={`${buttonClass} border-neutral-400 hover:bg-neutral-100`}
                      >
                        {busyDelivery === delivery.id ? text.sending : text.redeliver}
                      </button>
                    </Form>
                  )}
                </li>
              );
            })}
          </ul>
          <p className="mt-1 text-sm text-neutral-700">{text.logCount(deliveries.length, total)}</p>
        </>
      )}
    </section>
  );
}
