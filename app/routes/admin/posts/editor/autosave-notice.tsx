import { useState } from "react";
import { autosaveText, restoreText } from "~/content/revisions";
import { type AutosaveStatus, useAutosave, useRestoreOffer } from "./autosave";
import type { PostDraft } from "../post-draft";

function statusText(status: AutosaveStatus): string {
  switch (status.kind) {
    case "idle":
      return "";
    case "local":
      return autosaveText.local;
    case "sending":
      return autosaveText.sending;
    case "server":
      return autosaveText.server(status.at);
    case "offline":
      return autosaveText.offline;
    case "stale":
      return autosaveText.stale(status.updatedAt);
    case "failed":
      return autosaveText.failed(status.detail);
  }
}

/**
 * The editor's autosave (ADR 043): a polite status line, and, when the editor
 * opens on a post with newer unsaved text (a crash, a closed tab, a lost
 * network), the offer to put it back in the form.
 */
export function AutosaveNotice({
  draft,
  baseUpdatedAt,
  owner,
  onRestore,
}: {
  draft: PostDraft;
  /** The stored post's updatedAt as the editor opened it; undefined for a new post. */
  baseUpdatedAt?: string;
  /** The signed-in administrator (their e-mail): whose drafts this browser keeps. */
  owner: string;
  /** Puts a draft back in the form, with the version it was made from (undefined: unchanged). */
  onRestore: (draft: PostDraft, base?: string) => void;
}) {
  const status = useAutosave(draft, baseUpdatedAt, owner);
  const { offer, settle } = useRestoreOffer(draft, baseUpdatedAt, owner);
  const [restored, setRestored] = useState(false);
  const text = statusText(status);
  return (
    <div className="mt-3">
      <div aria-live="polite" className="min-h-5 text-sm text-neutral-700">
        {text && <p>{text}</p>}
        {restored && <p>{restoreText.restored}</p>}
      </div>
      {offer && (
        <div
          role="region"
          aria-label="Unsaved changes found"
          className="mt-2 flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          <span className="mr-auto">{restoreText.offer(offer.savedAt, offer.where, offer.earlier)}</span>
          <button
            type="button"
            className="rounded-md bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-800"
            onClick={() => {
              onRestore(offer.draft, offer.base);
              settle(false);
              setRestored(true);
            }}
          >
            {restoreText.restore}
          </button>
          <button
            type="button"
            className="rounded-md border border-neutral-400 bg-white px-3 py-1.5 font-medium hover:bg-neutral-100"
            onClick={() => settle(true)}
          >
            {restoreText.discard}
          </button>
        </div>
      )}
    </div>
  );
}
