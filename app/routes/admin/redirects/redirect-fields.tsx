import { Form } from "react-router";
import { redirectsText as text } from "~/content/redirects";
import { REDIRECT_LIMITS, REDIRECT_STATUSES } from "~/lib/redirects";

const FIELD =
  "h-11 w-full rounded-md border border-neutral-400 bg-white px-3 text-base text-neutral-900 focus:border-brand-600";
const LABEL = "text-sm font-semibold text-neutral-800";

/**
 * A redirect's fields (from, to, kind) and its submit button, as a form of
 * the screen's action: the "Add a redirect" form and each row's "Change".
 */
export function RedirectFields({
  idPrefix,
  id,
  from = "",
  to = "",
  status = 301,
  intent,
  submit,
  busy,
}: {
  /** Makes the fields' ids unique on the page. */
  idPrefix: string;
  /** The redirect changed (intent "update"). */
  id?: string;
  from?: string;
  to?: string;
  status?: number;
  intent: "create" | "update";
  submit: string;
  busy: boolean;
}) {
  return (
    <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
      {id && <input type="hidden" name="id" value={id} />}
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor={`${idPrefix}-from`} className={LABEL}>
          {text.fromLabel}
        </label>
        <input
          id={`${idPrefix}-from`}
          name="from"
          defaultValue={from}
          required
          maxLength={REDIRECT_LIMITS.from}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${idPrefix}-from-hint`}
          className={FIELD}
        />
        <p id={`${idPrefix}-from-hint`} className="text-sm text-neutral-700">
          {text.fromHint}
        </p>
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor={`${idPrefix}-to`} className={LABEL}>
          {text.toLabel}
        </label>
        <input
          id={`${idPrefix}-to`}
          name="to"
          defaultValue={to}
          required
          maxLength={REDIRECT_LIMITS.to}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${idPrefix}-to-hint`}
          className={FIELD}
        />
        <p id={`${idPrefix}-to-hint`} className="text-sm text-neutral-700">
          {text.toHint}
        </p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-status`} className={LABEL}>
          {text.statusLabel}
        </label>
        <select id={`${idPrefix}-status`} name="status" defaultValue={String(status)} className={FIELD}>
          {REDIRECT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {text.statuses[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-3">
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
