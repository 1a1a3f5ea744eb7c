/**
 * The post editor (docs/product/interface.md#editor): the toolbar, the form's
 * sections (post-fields.tsx), the preview panel, share links and revisions.
 */
import { useId, useState } from "react";
import { useAdminShell } from "~/components/admin/admin-shell";
import { EditorToolbar } from "~/components/admin/editing/editor-toolbar";
import { RevisionsPanel } from "~/components/admin/editing/revisions-panel";
import { ShareLinks } from "~/components/admin/editing/share-links";
import { postToolbarText as bar } from "~/content/revisions";
import type { OpenEditor } from "../use-post-editing";
import { AutosaveNotice } from "./autosave-notice";
import { hintClass } from "./fields";
import { ContentField } from "./content-field";
import { ImageFields, PublishFields, SeoFields, type SectionProps, SummaryFields, TitleAndSlug } from "./post-fields";
import { PostPreview } from "./post-preview";
import { PublishCheckDialog, PublishCheckList } from "./publish-check";
import { postKind } from "./post-kind";
import { type CheckItem, selectInTextarea } from "./publish-check-place";

/** The form, with the preview beside it on wide screens, or the preview alone. */
type EditorMode = "edit" | "preview";

/**
 * The post editor (docs/product/interface.md#editor): every post field, the Preview/Edit toggle, a close
 * button, a side preview panel and Save ('Saving...' while pending). Saving
 * and closing are the posts screen's (usePostEditing): it owns the draft and the alerts.
 */
export function PostEditor({ editing }: { editing: OpenEditor }) {
  const { draft, initial, base: baseUpdatedAt } = editing.editor;
  const { saving, uploading, saveError: error, change: onChange, close: onClose, restore: onRestore } = editing;
  const onSave = () => void editing.save();
  const onUploadingChange = editing.uploadChanged;
  // The slug as last saved (existing posts), to warn before changing a public address.
  const savedSlug = initial.id ? initial.slug : undefined;
  // The signed-in administrator's e-mail: whose unsaved drafts this browser keeps (ADR 043).
  const owner = useAdminShell().email;
  const ids = useId();
  const field = (name: string) => `${ids}-${name}`;
  const [mode, setMode] = useState<EditorMode>("edit");
  const kind = postKind(draft, onChange);
  const set: SectionProps["set"] = (key, value) => onChange({ ...draft, [key]: value });
  const sections = { draft, set, field };
  /** An item of the check before publishing: its place in the markdown, selected (the form shown first). */
  const goTo = (item: CheckItem) => {
    setMode("edit");
    requestAnimationFrame(() => {
      const textarea = document.getElementById(field("content"));
      if (textarea instanceof HTMLTextAreaElement) selectInTextarea(textarea, item);
    });
  };

  return (
    <section aria-labelledby={field("heading")}>
      {/* Sticky, so Save stays at hand however far down the form is. */}
      <EditorToolbar
        lead={{ heading: bar.heading(Boolean(draft.id)), id: field("heading") }}
        actions={[
          {
            key: "mode",
            label: mode === "edit" ? bar.preview : bar.edit,
            pressed: mode === "preview",
            onClick: () => setMode(mode === "edit" ? "preview" : "edit"),
          },
          {
            key: "save",
            label: saving ? bar.saving : bar.save,
            primary: true,
            disabled: saving || uploading,
            description: bar.shortcut,
            onClick: onSave,
          },
        ]}
        close={{ label: bar.close, title: bar.closeTitle, onClose }}
      />

      {error && (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      {uploading && (
        <p className="mt-4 text-sm text-neutral-700">Save is available when the image has finished uploading.</p>
      )}
      <AutosaveNotice draft={draft} baseUpdatedAt={baseUpdatedAt} owner={owner} onRestore={onRestore} />

      <div className="mt-6 grid gap-8 lg:grid-cols-2">
        <form
          id={field("form")}
          noValidate
          hidden={mode === "preview"}
          onSubmit={(event) => {
            event.preventDefault();
            onSave();
          }}
          className="flex flex-col gap-5"
        >
          <p className={hintClass}>Fields marked * are required.</p>
          <TitleAndSlug {...sections} onChange={onChange} savedSlug={savedSlug} />
          <SummaryFields {...sections} />
          <ImageFields {...sections} onUploadingChange={onUploadingChange} />
          <PublishFields {...sections} />
          <ContentField {...sections} updateContent={editing.changeContent} onUploadingChange={onUploadingChange} />
          <PublishCheckList check={editing.check} content={draft.content} onGo={goTo} />
          <SeoFields {...sections} />
        </form>

        <section
          aria-label="Preview"
          // It scrolls on its own beside the form, so it must be reachable by keyboard.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container, the case the rule's docs exempt (axe: scrollable-region-focusable)
          tabIndex={0}
          className={
            mode === "preview"
              ? "rounded-lg border border-neutral-200 bg-white p-6 shadow-sm lg:col-span-2"
              : "hidden rounded-lg border border-neutral-200 bg-white p-6 shadow-sm lg:sticky lg:top-24 lg:block lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto"
          }
        >
          <p className="mb-4 text-xs font-semibold uppercase tracking-wide text-neutral-700">
            Preview: as visitors will see it
          </p>
          <PostPreview draft={draft} />
        </section>
      </div>
      <PublishCheckDialog
        check={editing.check}
        content={draft.content}
        onGo={goTo}
        onStopAsking={editing.stopAsking}
        onPublishAnyway={() => {
          editing.stopAsking();
          void editing.save({ anyway: true });
        }}
      />
      <ShareLinks links={kind.shareLinks} />
      {draft.id && <RevisionsPanel revisions={kind.revisions} />}
    </section>
  );
}
