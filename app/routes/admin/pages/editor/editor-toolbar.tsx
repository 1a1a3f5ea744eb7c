/**
 * The Pages editor's toolbar (ADR 053): where the draft stands, and Preview,
 * Publish and Discard draft. Preview opens the public page with
 * the draft in a new tab, once the form is kept as the draft.
 */
import { useState } from "react";
import { shortTime } from "~/content/revisions";
import { pagesText } from "~/content/pages";
import { pagePreviewPath } from "~/lib/site-content-pages";
import { inputIdOf } from "./form-model";
import type { Confirmation } from "./confirmation";
import type { PageEditing, Status } from "./use-page-editing";

function statusText(status: Status): string {
  switch (status.kind) {
    case "published":
      return pagesText.status.published;
    case "editing":
      return pagesText.status.editing;
    case "saving":
      return pagesText.status.saving;
    case "saved":
      return pagesText.status.saved(shortTime(status.at));
    case "invalid":
      return pagesText.status.invalid;
    case "conflict":
      return pagesText.status.conflict;
    case "failed":
      return pagesText.status.failed(status.detail);
  }
}

const button =
  "min-h-10 rounded-md border border-neutral-400 bg-white px-4 py-2 font-medium hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-50";

/** Focuses the first field with a message (a refused publish). */
function focusFirstIssue(issues: Map<string, string>) {
  const [first] = issues.keys();
  if (!first) return;
  const field = window.document.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`);
  (field ?? window.document.getElementById(`${inputIdOf([first])}-error`))?.focus();
}

export function EditorToolbar({
  editing,
  onNotice,
  onConfirm,
}: {
  editing: PageEditing;
  onNotice: (text: string | undefined) => void;
  onConfirm: (confirmation: Confirmation) => void;
}) {
  const { name, status, issues, draft } = editing;
  const [busy, setBusy] = useState(false);
  const tone =
    status.kind === "conflict" || status.kind === "failed" || status.kind === "invalid"
      ? "text-red-800"
      : "text-neutral-800";

  async function preview() {
    // Opened at once (a popup opened after an await is blocked), pointed at the preview once the draft is kept.
    const tab = window.open("about:blank", "_blank");
    await editing.flush();
    if (tab) tab.location.href = pagePreviewPath(name);
    else window.location.href = pagePreviewPath(name);
  }

  async function publish() {
    onNotice(undefined);
    if (issues.size > 0) {
      onNotice(pagesText.publishInvalid);
      focusFirstIssue(issues);
      return;
    }
    setBusy(true);
    if (await editing.publish()) onNotice(pagesText.publishedNotice);
    setBusy(false);
  }

  return (
    <div className="z-10 mt-4 sm:sticky sm:top-0 flex flex-col gap-3 rounded-lg border border-neutral-200 bg-white/95 p-4 shadow-sm backdrop-blur">
      <p role="status" aria-live="polite" className={`text-sm font-medium ${tone}`} data-testid="page-status">
        {statusText(status)}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={button} onClick={() => void preview()}>
          {pagesText.preview}
        </button>
        {draft && (
          <button
            type="button"
            className={button}
            onClick={() =>
              onConfirm({
                title: pagesText.discard,
                description: pagesText.discardConfirm,
                confirm: pagesText.discard,
                run: () => void editing.discard(),
              })
            }
          >
            {pagesText.discard}
          </button>
        )}
        <button
          type="button"
          disabled={busy || status.kind === "conflict"}
          onClick={() => void publish()}
          className="min-h-10 rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {busy ? pagesText.publishing : pagesText.publish}
        </button>
      </div>
    </div>
  );
}
