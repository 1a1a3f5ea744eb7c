/**
 * The posts screen's editor state (docs/product/interface.md#blog-admin):
 * which post is open, its draft, saving and uploading, closing with the
 * chance to restore what was typed, and Save's alerts.
 */
import { type RefObject, useCallback, useRef, useState } from "react";
import type { useRevalidator } from "react-router";
import { conflictText } from "~/content/revisions";
import { ApiFailure, checkBeforePublishing, EditConflict, savePost } from "./admin-api";
import { clearLocalDraft } from "./editor/autosave";
import { type CheckItem, checkItems } from "./editor/publish-check-place";
import { missingImageAlt, missingRequiredFields, NO_POST_MESSAGE, type PostDraft, sameDraft } from "./post-draft";

export interface EditorState {
  /** The draft as opened (or last saved), to tell whether anything changed. */
  initial: PostDraft;
  draft: PostDraft;
  /** Remounts the editor for each opening. */
  key: number;
  /** The stored post's updatedAt the draft is based on (ADR 043): a save from an older one is refused. */
  base?: string;
}

/** What the check before publishing found (ADR 057): asked in a dialog, then listed under the text. */
export interface PublishCheckState {
  items: CheckItem[];
  /** More links and images than were checked. */
  more: boolean;
  /** The dialog is open (else the list shows under the text). */
  asking: boolean;
}

export type Notice = { kind: "status" | "error"; text: string; link?: { to: string; label: string } };

function describeSaved(post: { title: string; slug: string; published: boolean; publishDate: string }): Notice {
  const live = post.published && Date.parse(post.publishDate) <= Date.now();
  return {
    kind: "status",
    text: `"${post.title}" was saved${post.published ? (live ? " and is published." : " and is scheduled.") : " as a draft."}`,
    link: live ? { to: `/blog/${post.slug}`, label: "View it on the blog" } : undefined,
  };
}

export function usePostEditing({
  owner,
  setNotice,
  revalidator,
  createButtonRef,
}: {
  /** The signed-in administrator's e-mail: whose local drafts a save clears (ADR 043). */
  owner: string;
  setNotice: (notice: Notice | undefined) => void;
  revalidator: ReturnType<typeof useRevalidator>;
  /** The "Create New Post" button, focused again on the way back to the list. */
  createButtonRef: RefObject<HTMLButtonElement | null>;
}) {
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [saving, setSaving] = useState(false);
  // Uploads still going: a header image and body images can overlap, and the end of one must not clear another.
  const [uploads, setUploads] = useState(0);
  const uploading = uploads > 0;
  const uploadChanged = useCallback(
    (started: boolean) => setUploads((count) => Math.max(0, count + (started ? 1 : -1))),
    [],
  );
  const [saveError, setSaveError] = useState<string>();
  const [discarded, setDiscarded] = useState<EditorState | null>(null);
  const [check, setCheck] = useState<PublishCheckState>();
  const openings = useRef(0);

  const dirty = editor !== null && !sameDraft(editor.initial, editor.draft);

  function open(draft: PostDraft, base?: string) {
    setNotice(undefined);
    setSaveError(undefined);
    setDiscarded(null);
    setCheck(undefined);
    setEditor({ initial: draft, draft, key: ++openings.current, base });
  }

  function backToList() {
    setEditor(null);
    setSaveError(undefined);
    setUploads(0);
    setCheck(undefined);
    requestAnimationFrame(() => createButtonRef.current?.focus());
  }

  function close() {
    // Close returns to the list without saving (docs/product/interface.md#blog-admin). What was typed is
    // kept so that a mistaken close can be undone.
    if (editor && dirty) {
      setDiscarded(editor);
      setNotice({ kind: "status", text: "Closed without saving." });
    }
    backToList();
  }

  /** "Restore unsaved changes": the closed draft opens again. */
  function restoreDiscarded() {
    if (!discarded) return;
    setNotice(undefined);
    setDiscarded(null);
    setEditor({ ...discarded, key: ++openings.current });
  }

  /**
   * Saves the draft. One that publishes or schedules the post is checked
   * first (ADR 057): what the check finds is asked about, and the post is
   * saved only when the writer chooses to publish anyway (`anyway`).
   */
  const save = useCallback(
    async ({ anyway = false }: { anyway?: boolean } = {}) => {
      if (!editor) {
        window.alert(NO_POST_MESSAGE);
        return;
      }
      if (saving || uploading) return;
      const missing = missingRequiredFields(editor.draft);
      if (missing) {
        window.alert(missing);
        return;
      }
      const noAlt = missingImageAlt(editor.draft);
      if (noAlt) {
        setSaveError(noAlt);
        document.querySelector<HTMLInputElement>('input[name="headerImageAlt"]')?.focus();
        return;
      }
      setSaving(true);
      setSaveError(undefined);
      try {
        if (editor.draft.published && !anyway) {
          const found = await checkBeforePublishing(editor.draft);
          if (found && found.problems.length > 0) {
            setCheck({ items: checkItems(editor.draft.content, found.problems), more: found.more, asking: true });
            return;
          }
        }
        setCheck(undefined);
        const saved = await savePost(editor.draft, { baseUpdatedAt: editor.base });
        clearLocalDraft(owner, editor.draft.id);
        setEditor(null);
        setDiscarded(null);
        setNotice(describeSaved(saved));
        requestAnimationFrame(() => createButtonRef.current?.focus());
        await revalidator.revalidate();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        window.alert(`Error saving post: ${message}`);
        if (error instanceof EditConflict) {
          // Saving again replaces their version with this one, on purpose.
          setEditor((current) => current && { ...current, base: error.updatedAt });
          setSaveError(conflictText(error.updatedAt));
        } else if (error instanceof ApiFailure) {
          setSaveError(
            error.status === 401
              ? "Your session has ended. Sign in again in another tab, then press Save here: your changes are kept."
              : `The post was not saved: ${error.detail}. Your changes are kept.`,
          );
        } else {
          setSaveError("The post was not saved: the server could not be reached. Your changes are kept; try again.");
        }
      } finally {
        setSaving(false);
      }
    },
    [editor, saving, uploading, revalidator, owner, setNotice, createButtonRef],
  );

  return {
    editor,
    dirty,
    saving,
    uploading,
    /** An upload starts (true) or ends (false); Save waits while any is going. */
    uploadChanged,
    saveError,
    /** What the check before publishing found, if it found anything. */
    check,
    /** The check's dialog closes; its list stays under the text. */
    stopAsking: () => setCheck((current) => current && { ...current, asking: false }),
    /** Whether a closed draft can be restored. */
    canRestore: discarded !== null,
    open,
    close,
    save,
    restoreDiscarded,
    /** The editor's change of the draft. */
    change: (draft: PostDraft) => setEditor((current) => current && { ...current, draft }),
    /** A change of the body made from its latest text (an image placed when its upload ends). */
    changeContent: (update: (content: string) => string) =>
      setEditor(
        (current) => current && { ...current, draft: { ...current.draft, content: update(current.draft.content) } },
      ),
    /** An autosaved or older version put back in the form, with the version it was made from. */
    restore: (draft: PostDraft, base?: string) =>
      setEditor((current) => current && { ...current, draft, base: base ?? current.base }),
  };
}

/** The posts screen's editing while a post is open: what PostEditor works with. */
export type OpenEditor = Omit<ReturnType<typeof usePostEditing>, "editor"> & { editor: EditorState };
