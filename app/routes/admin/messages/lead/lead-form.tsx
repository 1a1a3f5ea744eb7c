/**
 * The lead's own fields (ADR 070): its status, follow-up day and the owner's
 * note, saved together by one button through the screen's action.
 */
import { useRef, useState } from "react";
import { Form } from "react-router";
import { hintClass, inputClass, labelClass } from "~/components/admin/field-classes";
import { LEAD_STATUS_LABELS, leadsText as text } from "~/content/leads";
import { LEAD_LIMITS, LEAD_STATUSES } from "~/lib/leads";
import type { ContactMessage } from "~/server/messages/index.server";

export function LeadForm({ message, busy }: { message: ContactMessage; busy: boolean }) {
  const [followUp, setFollowUp] = useState(message.followUpAt ?? "");
  // The stored status can change under the form (a reply moves new to contacted): the select follows
  // it, and what the owner typed in the other fields stays.
  const [status, setStatus] = useState(message.status);
  const [stored, setStored] = useState(message.status);
  if (stored !== message.status) {
    setStored(message.status);
    setStatus(message.status);
  }
  const dateField = useRef<HTMLInputElement>(null);
  return (
    <section aria-labelledby="lead-heading" className="mt-6 rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id="lead-heading" className="text-xl font-semibold">
        {text.leadHeading}
      </h2>
      <Form method="post" className="mt-3 flex flex-col gap-4">
        <div className="flex flex-wrap gap-4">
          <div className="flex flex-col gap-1">
            <label htmlFor="lead-status" className={labelClass}>
              {text.statusLabel}
            </label>
            <select
              id="lead-status"
              name="status"
              value={status}
              onChange={(event) => setStatus(event.target.value as typeof status)}
              className={`h-11 ${inputClass}`}
            >
              {LEAD_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {LEAD_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="lead-follow-up" className={labelClass}>
              {text.followUpLabel}
            </label>
            <div className="flex flex-wrap items-center gap-2">
              <input
                ref={dateField}
                id="lead-follow-up"
                type="date"
                name="followUpAt"
                value={followUp}
                onChange={(event) => setFollowUp(event.target.value)}
                aria-describedby="lead-follow-up-hint"
                className={`h-11 w-auto ${inputClass}`}
              />
              {followUp && (
                <button
                  type="button"
                  onClick={() => {
                    // The button goes with the date: focus stays in the field it emptied.
                    setFollowUp("");
                    dateField.current?.focus();
                  }}
                  className="min-h-10 rounded-md border border-neutral-400 bg-white px-3 text-sm font-medium hover:bg-neutral-100"
                >
                  {text.clearFollowUp}
                </button>
              )}
            </div>
            <p id="lead-follow-up-hint" className={hintClass}>
              {text.followUpHint}
            </p>
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="lead-note" className={labelClass}>
            {text.noteLabel}
          </label>
          <textarea
            id="lead-note"
            name="note"
            rows={4}
            maxLength={LEAD_LIMITS.note}
            defaultValue={message.note ?? ""}
            className={inputClass}
          />
        </div>
        <div>
          <button
            type="submit"
            name="intent"
            value="save"
            disabled={busy}
            className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            {busy ? text.saving : text.save}
          </button>
        </div>
      </Form>
    </section>
  );
}
