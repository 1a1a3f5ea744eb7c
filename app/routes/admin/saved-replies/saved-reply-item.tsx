/** One saved reply in the list: its name and text, "Change" opens its fields, "Delete" asks first. */
import { Form } from "react-router";
import { leadsText as text } from "~/content/leads";
import type { SavedReply } from "~/server/messages/index.server";
import { SavedReplyFields } from "./saved-reply-fields";

export function SavedReplyItem({
  saved,
  busy,
}: {
  saved: SavedReply;
  /** The intent of a form submitted for this saved reply, if any. */
  busy: FormDataEntryValue | null | undefined;
}) {
  return (
    <li className="rounded-lg border border-neutral-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={`saved-${saved.id}`} className="min-w-0 font-semibold break-words">
          {saved.name}
        </h3>
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(text.confirmRemove)) event.preventDefault();
          }}
        >
          <input type="hidden" name="id" value={saved.id} />
          <button
            type="submit"
            name="intent"
            value="delete"
            aria-label={text.removeLabel(saved.name)}
            disabled={busy === "delete"}
            className="min-h-10 rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
          >
            {text.remove}
          </button>
        </Form>
      </div>
      <p className="mt-2 text-sm whitespace-pre-wrap break-words text-neutral-800">{saved.body}</p>
      <details className="mt-2">
        <summary
          aria-label={text.changeLabel(saved.name)}
          className="inline-flex min-h-10 cursor-pointer items-center font-medium text-brand-800 underline underline-offset-2"
        >
          {text.change}
        </summary>
        <SavedReplyFields
          idPrefix={`s-${saved.id}`}
          id={saved.id}
          name={saved.name}
          body={saved.body}
          intent="update"
          submit={text.saveChange}
          busy={busy === "update"}
        />
      </details>
    </li>
  );
}
