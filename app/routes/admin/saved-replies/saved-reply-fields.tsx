/**
 * A saved reply's name and text and its submit button, as a form of the
 * screen's action: the "Add a saved reply" form and each one's "Change".
 */
import { Form } from "react-router";
import { inputClass, hintClass, labelClass } from "~/components/admin/field-classes";
import { leadsText as text } from "~/content/leads";
import { LEAD_LIMITS } from "~/lib/leads";

export function SavedReplyFields({
  idPrefix,
  id,
  name = "",
  body = "",
  intent,
  submit,
  busy,
}: {
  /** Makes the fields' ids unique on the page. */
  idPrefix: string;
  /** The saved reply changed (intent "update"). */
  id?: string;
  name?: string;
  body?: string;
  intent: "create" | "update";
  submit: string;
  busy: boolean;
}) {
  return (
    <Form method="post" className="mt-3 flex flex-col gap-3">
      {id && <input type="hidden" name="id" value={id} />}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-name`} className={labelClass}>
          {text.nameLabel}
        </label>
        <input
          id={`${idPrefix}-name`}
          name="name"
          defaultValue={name}
          required
          maxLength={LEAD_LIMITS.savedReplyName}
          autoComplete="off"
          aria-describedby={`${idPrefix}-name-hint`}
          className={`h-11 ${inputClass}`}
        />
        <p id={`${idPrefix}-name-hint`} className={hintClass}>
          {text.nameHint}
        </p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-body`} className={labelClass}>
          {text.bodyLabel}
        </label>
        <textarea
          id={`${idPrefix}-body`}
          name="body"
          defaultValue={body}
          required
          rows={6}
          maxLength={LEAD_LIMITS.reply}
          className={inputClass}
        />
      </div>
      <div>
        <button
          type="submit"
          name="intent"
          value={intent}
          disabled={busy}
          className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {submit}
        </button>
      </div>
    </Form>
  );
}
