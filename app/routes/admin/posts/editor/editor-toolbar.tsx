/** The editor's sticky bar: its heading, Preview/Edit, Save ('Saving...' while pending) and Close. */

/** The form, with the preview beside it on wide screens, or the preview alone. */
export type EditorMode = "edit" | "preview";

export function EditorToolbar({
  heading,
  headingId,
  shortcutId,
  mode,
  onModeChange,
  saving,
  uploading,
  onSave,
  onClose,
}: {
  heading: string;
  headingId: string;
  shortcutId: string;
  mode: EditorMode;
  onModeChange: (mode: EditorMode) => void;
  saving: boolean;
  uploading: boolean;
  onSave: () => void;
  onClose: () => void;
}) {
  return (
    <div className="sticky top-0 z-10 -mx-4 -mt-4 flex flex-wrap items-center gap-3 border-b border-neutral-200 bg-white px-4 py-3 sm:-mx-6 sm:-mt-6 sm:rounded-t-lg sm:px-6">
      <h2 id={headingId} className="w-full text-2xl font-bold sm:mr-auto sm:w-auto">
        {heading}
      </h2>
      <button
        type="button"
        aria-pressed={mode === "preview"}
        onClick={() => onModeChange(mode === "edit" ? "preview" : "edit")}
        className="rounded-md border border-neutral-400 bg-white px-4 py-2 font-medium hover:bg-neutral-100"
      >
        {mode === "edit" ? "Preview" : "Edit"}
      </button>
      <button
        type="button"
        onClick={onSave}
        disabled={saving || uploading}
        aria-describedby={shortcutId}
        className="rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {saving ? "Saving..." : "Save"}
      </button>
      <span id={shortcutId} className="sr-only">
        Shortcut: Control or Command plus S
      </span>
      <button
        type="button"
        aria-label="Close"
        title="Close without saving"
        onClick={onClose}
        className="ml-auto inline-flex sm:ml-0 h-10 w-10 items-center justify-center rounded-md border border-neutral-400 bg-white hover:bg-neutral-100"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
          <path d="M5.3 4.2a.75.75 0 0 0-1.1 1.1L8.9 10l-4.7 4.7a.75.75 0 1 0 1.1 1.1l4.7-4.7 4.7 4.7a.75.75 0 1 0 1.1-1.1L11.1 10l4.7-4.7a.75.75 0 0 0-1.1-1.1L10 8.9 5.3 4.2Z" />
        </svg>
      </button>
    </div>
  );
}
