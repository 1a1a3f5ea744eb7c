import { Form } from "react-router";
import { redirectsText as text } from "~/content/redirects";
import type { Redirect } from "~/lib/redirects";
import { RedirectFields } from "./redirect-fields";

/** One redirect: from, where it leads and how; "Change" opens its fields, "Delete" asks first. */
export function RedirectRow({
  redirect,
  busyId,
}: {
  redirect: Redirect;
  busyId: FormDataEntryValue | null | undefined;
}) {
  const busy = busyId === redirect.id;
  return (
    <li className="rounded-lg border border-neutral-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="min-w-0 flex-[1_1_20rem] break-words">
          <code className="font-semibold">{redirect.from}</code>{" "}
          <span className="text-neutral-700">{text.leadsTo}</span> <code>{redirect.to}</code>
          <span className="mt-1 block text-neutral-700">
            {text.statuses[redirect.status]}
            {redirect.automatic && ` · ${text.automatic}`}
            {redirect.imported && ` · ${text.importedMark}`}
          </span>
        </p>
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(text.confirmRemove)) event.preventDefault();
          }}
        >
          <input type="hidden" name="id" value={redirect.id} />
          <button
            type="submit"
            name="intent"
            value="delete"
            aria-label={text.removeLabel(redirect.from)}
            disabled={busy}
            className="min-h-10 rounded-md border border-red-300 px-3 py-1.5 font-medium text-red-800 hover:bg-red-50"
          >
            {busy ? text.removing : text.remove}
          </button>
        </Form>
      </div>
      <details className="mt-2">
        <summary
          aria-label={text.change(redirect.from)}
          className="inline-flex min-h-10 cursor-pointer items-center font-medium text-brand-800 underline underline-offset-2"
        >
          {text.changeSummary}
        </summary>
        <RedirectFields
          idPrefix={`r-${redirect.id}`}
          id={redirect.id}
          from={redirect.from}
          to={redirect.to}
          status={redirect.status}
          intent="update"
          submit={text.saveChange}
          busy={busy}
        />
      </details>
    </li>
  );
}
