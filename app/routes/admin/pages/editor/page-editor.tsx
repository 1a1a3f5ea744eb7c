/**
 * The Pages editor (ADR 053): one page's content as a form of folding
 * sections, its toolbar (status, Preview, Publish, Discard draft), its
 * share links and its history. The form is drawn from the page's zod schema.
 */
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { type Confirmation, ConfirmationDialog } from "~/components/admin/editing/confirmation";
import { EditorToolbar } from "~/components/admin/editing/editor-toolbar";
import { RevisionsPanel } from "~/components/admin/editing/revisions-panel";
import { ShareLinks } from "~/components/admin/editing/share-links";
import { PAGE_DESCRIPTIONS, PAGE_TITLES, pagesText } from "~/content/pages";
import { defaultContent } from "~/content/site-content-defaults";
import { contentSchemas } from "~/lib/site-content";
import type { ContentRevisionSummary } from "~/server/pages/index.server";
import { FieldNode } from "./content-fields";
import { FormContext } from "./form-context";
import { describe, labelOf, type Node } from "./form-model";
import { pageKind } from "./page-kind";
import { usePageEditing, type EditorData } from "./use-page-editing";
import { usePageToolbar } from "./use-page-toolbar";

export function PageEditor(props: EditorData & { revisions: ContentRevisionSummary[] }) {
  const editing = usePageEditing(props);
  const { name, document, update, issues } = editing;
  const model = useMemo(() => describe(contentSchemas[name]) as Extract<Node, { kind: "group" }>, [name]);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [notice, setNotice] = useState<string>();
  const toolbar = usePageToolbar({ editing, onNotice: setNotice, ask: setConfirmation });
  const kind = pageKind({ editing, initial: props.revisions, ask: setConfirmation, onNotice: setNotice });
  const form = useMemo(() => ({ document, issues, update }), [document, issues, update]);
  const title = PAGE_TITLES[name];

  const resetSection = (key: string) =>
    setConfirmation({
      title: pagesText.resetSection,
      description: pagesText.resetConfirm(labelOf(key)),
      confirm: pagesText.resetSection,
      run: () => update([key], (defaultContent(name) as Record<string, unknown>)[key]),
    });

  return (
    <div className="mx-auto max-w-4xl">
      <p>
        <Link to="/admin/pages" className="text-sm text-brand-800 underline underline-offset-2">
          {pagesText.back}
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{pagesText.edit(title)}</h1>
      <p className="mt-1 max-w-prose text-neutral-700">{PAGE_DESCRIPTIONS[name]}</p>

      <EditorToolbar {...toolbar} />
      <div role="status" className="mt-3 empty:hidden">
        {notice && <p className="rounded-md border border-brand-600 bg-brand-50 px-3 py-2 text-brand-900">{notice}</p>}
      </div>
      {editing.draft && editing.draft.baseVersion !== editing.published.version && (
        <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {pagesText.draftStale}
        </p>
      )}

      <FormContext.Provider value={form}>
        <form
          noValidate
          onSubmit={(event) => event.preventDefault()}
          className="mt-6 flex flex-col gap-4"
          aria-label={title}
        >
          {model.fields.map(({ key, node }) =>
            node.kind === "group" ? (
              <details key={key} open className="rounded-lg border border-neutral-200 bg-white">
                <summary className="cursor-pointer px-5 py-3 text-lg font-semibold">{labelOf(key)}</summary>
                <div className="flex flex-col gap-4 border-t border-neutral-200 p-5">
                  <FieldNode node={node} path={[key]} label={labelOf(key)} />
                  <div>
                    <button
                      type="button"
                      onClick={() => resetSection(key)}
                      aria-label={`${pagesText.resetSection}: ${labelOf(key)}`}
                      className="min-h-9 rounded-md border border-neutral-400 px-3 py-1 text-sm font-medium hover:bg-neutral-100"
                    >
                      {pagesText.resetSection}
                    </button>
                  </div>
                </div>
              </details>
            ) : (
              <div key={key} className="rounded-lg border border-neutral-200 bg-white p-5">
                <FieldNode node={node} path={[key]} label={labelOf(key)} />
              </div>
            ),
          )}
        </form>
      </FormContext.Provider>

      <ShareLinks links={kind.shareLinks} level={2} />
      <RevisionsPanel revisions={kind.revisions} level={2} />
      <ConfirmationDialog confirmation={confirmation} onDone={() => setConfirmation(null)} />
    </div>
  );
}
