/**
 * The acknowledgement setting (ADR 070): whether each new sender gets a "we
 * received your message" e-mail, and its text; an empty text is the
 * default, which the field shows as its placeholder; below it, what a
 * sender receives with the saved text.
 */
import { Form } from "react-router";
import { hintClass, inputClass, labelClass } from "~/components/admin/field-classes";
import { DEFAULT_ACKNOWLEDGEMENT, leadsText as text } from "~/content/leads";
import { LEAD_LIMITS } from "~/lib/leads";
import type { AcknowledgementSetting } from "~/server/messages/index.server";

export function AcknowledgementForm({
  setting,
  preview,
  busy,
}: {
  setting: AcknowledgementSetting;
  /** The saved text (or the default) as a sender receives it. */
  preview: string;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="ack-heading" className="mt-8 rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="ack-heading" className="text-xl font-semibold">
        {text.ackHeading}
      </h2>
      <Form method="post" className="mt-3 flex flex-col gap-4">
        <div className="flex items-start gap-3">
          <input
            id="ack-enabled"
            type="checkbox"
            name="enabled"
            defaultChecked={setting.enabled}
            aria-describedby="ack-enabled-hint"
            className="mt-1 size-5 shrink-0 accent-brand-700"
          />
          <div>
            <label htmlFor="ack-enabled" className="font-semibold text-neutral-900">
              {text.ackEnabled}
            </label>
            <p id="ack-enabled-hint" className={hintClass}>
              {text.ackHint}
            </p>
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="ack-text" className={labelClass}>
            {text.ackTextLabel}
          </label>
          <p id="ack-text-hint" className={hintClass}>
            {text.ackTextHint}
          </p>
          <textarea
            id="ack-text"
            name="text"
            rows={7}
            maxLength={LEAD_LIMITS.acknowledgement}
            defaultValue={setting.text ?? ""}
            placeholder={DEFAULT_ACKNOWLEDGEMENT}
            aria-describedby="ack-text-hint"
            className={inputClass}
          />
          <details className="mt-1 text-sm">
            <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-2">
              {text.ackPreviewSummary}
            </summary>
            <p className="mt-2 rounded-md border border-neutral-200 bg-neutral-50 p-3 whitespace-pre-wrap">{preview}</p>
          </details>
        </div>
        <div>
          <button
            type="submit"
            name="intent"
            value="acknowledgement"
            disabled={busy}
            className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {text.ackSave}
          </button>
        </div>
      </Form>
    </section>
  );
}
