/**
 * What the Pages editor's bar holds (ADR 053, ADR 065): where the draft
 * stands, and Preview, Discard draft and Publish. Preview opens the public
 * page with the draft in a new tab, once the form is kept as the draft.
 */
import { useState } from "react";
import type { Confirmation } from "~/components/admin/editing/confirmation";
import type { EditorToolbar } from "~/components/admin/editing/editor-toolbar";
import { shortTime } from "~/content/revisions";
import { pagesText } from "~/content/pages";
import { pagePreviewPath } from "~/lib/site-content-pages";
import { inputIdOf } from "./form-model";
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

/** Focuses the first field with a message (a refused publish). */
function focusFirstIssue(issues: Map<string, string>) {
  const [first] = issues.keys();
  if (!first) return;
  const field = window.document.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`);
  (field ?? window.document.getElementById(`${inputIdOf([first])}-error`))?.focus();
}

export function usePageToolbar({
  editing,
  onNotice,
  ask,
}: {
  editing: PageEditing;
  onNotice: (text: string | undefined) => void;
  ask: (confirmation: Confirmation) => void;
}): Parameters<typeof EditorToolbar>[0] {
  const { name, status, issues, draft } = editing;
  const [busy, setBusy] = useState(false);

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

  const discard = {
    key: "discard",
    label: pagesText.discard,
    onClick: () =>
      ask({
        title: pagesText.discard,
        description: pagesText.discardConfirm,
        confirm: pagesText.discard,
        run: () => void editing.discard(),
      }),
  };
  return {
    lead: {
      status: statusText(status),
      alert: status.kind === "conflict" || status.kind === "failed" || status.kind === "invalid",
      testId: "page-status",
    },
    actions: [
      { key: "preview", label: pagesText.preview, onClick: () => void preview() },
      ...(draft ? [discard] : []),
      {
        key: "publish",
        label: busy ? pagesText.publishing : pagesText.publish,
        primary: true,
        disabled: busy || status.kind === "conflict",
        onClick: () => void publish(),
      },
    ],
  };
}
