import { ShownOnceField } from "~/components/admin/shown-once-field";
import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { webhooksText as text } from "~/content/webhooks";
import { EVENT_NAMES } from "~/lib/events";
import { WEBHOOK_LIMITS } from "~/lib/webhooks";
import type { WebhooksAnswer } from "./actions.server";

/** The add form (URL, events, the password again: ADR 046) and the new webhook's secret, shown once. */
export function AddWebhook({ answer, busy }: { answer: WebhooksAnswer | undefined; busy: boolean }) {
  const created = answer?.ok && "secret" in answer ? answer : undefined;
  const refused = answer && !answer.ok ? answer : undefined;
  const form = useRef<HTMLFormElement>(null);
  const secretField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!created) return;
    form.current?.reset();
    secretField.current?.focus();
    secretField.current?.select();
  }, [created]);

  const formError = refused && refused.field !== "password" ? refused.error : undefined;
  return (
    <section aria-labelledby="add-webhook" className="mt-6 rounded-lg border border-neutral-200 bg-white p-4 sm:p-5">
      <h2 id="add-webhook" className="text-xl font-semibold">
        {text.addHeading}
      </h2>
      {/* A refusal remounts the fields with what was typed. */}
      <Form
        ref={form}
        method="post"
        key={refused ? JSON.stringify(refused) : "new"}
        className="mt-3 flex flex-col gap-4"
      >
        {formError && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
            {formError}
          </p>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor="webhook-url" className="text-sm font-semibold text-neutral-800">
            {text.urlLabel}
          </label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            maxLength={WEBHOOK_LIMITS.url}
            autoComplete="off"
            inputMode="url"
            defaultValue={refused?.url}
            aria-describedby="webhook-url-hint"
            className="h-11 w-full rounded-md border border-neutral-400 px-3 text-base"
          />
          <p id="webhook-url-hint" className="text-sm text-neutral-700">
            {text.urlHint}
          </p>
        </div>
        <fieldset>
          <legend className="text-sm font-semibold text-neutral-800">{text.eventsLegend}</legend>
          <div className="mt-1 flex flex-col gap-1">
            {EVENT_NAMES.map((event) => (
              <label key={event} className="flex min-h-10 items-start gap-2 py-1">
                <input
                  type="checkbox"
                  name="events"
                  value={event}
                  defaultChecked={refused?.events?.includes(event)}
                  className="mt-1 h-5 w-5 shrink-0"
                />
                <span>
                  {text.events[event]} <code className="text-sm text-neutral-700">{event}</code>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-[minmax(0,20rem)_auto] sm:items-start">
          <CurrentPasswordField
            id="webhook-password"
            label={text.passwordLabel}
            error={refused?.field === "password" ? refused.error : undefined}
            attempt={refused}
          />
          <div className="sm:pt-6">
            <button
              type="submit"
              name="intent"
              value="add"
              disabled={busy}
              className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
            >
              {busy ? text.adding : text.add}
            </button>
          </div>
        </div>
      </Form>
      {created && (
        <div className="mt-4 rounded-md border border-brand-600 bg-brand-50 p-4">
          <h3 className="font-semibold text-brand-900">{text.secretHeading}</h3>
          <p className="mt-1 text-sm text-brand-900">{text.secretIntro}</p>
          <ShownOnceField
            id="webhook-secret"
            label={text.secretLabel(created.url)}
            value={created.secret}
            inputRef={secretField}
            copyLabel={text.copy}
            copiedLabel={text.copied}
          />
        </div>
      )}
    </section>
  );
}
