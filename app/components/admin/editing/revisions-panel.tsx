/**
 * The History panel of every editor (ADR 043, ADR 053, ADR 065): a document's
 * kept versions, newest first, each compared with what is there now, and
 * restored the kind's way. A post's version goes back into the form (only
 * Save keeps it); a page's is published again after a question.
 */
import { type ReactNode, useId, useState } from "react";
import { shortTime } from "~/content/revisions";
import { Comparison } from "./comparison";
import type { FormRevisions, LiveRevisions, RevisionItem, Revisions } from "./document-kind";
import { useChosenRevision, useRevisionList } from "./use-revisions";

const smallButton =
  "min-h-9 rounded-md border border-neutral-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-neutral-100";

/** One item of a post's list: choosing it compares it below the list. */
function FormRow({ item, chosen, onChoose, texts }: RowProps<FormRevisions<unknown>>) {
  return (
    <li className="flex flex-wrap items-baseline gap-x-2">
      {/* Who saved it stays outside the button's name: a name or e-mail may hold "Edit" or "Save". */}
      <button
        type="button"
        aria-pressed={chosen}
        onClick={() => onChoose(item)}
        className="rounded-md px-2 py-1.5 text-left text-sm hover:bg-neutral-100 aria-pressed:bg-brand-50 aria-pressed:font-semibold"
      >
        {texts.item(item.number, item.at ?? "")}
      </button>
      {item.by && <span className="text-sm text-neutral-700">{texts.by(item.by)}</span>}
    </li>
  );
}

interface RowProps<K extends Revisions<unknown>> {
  item: RevisionItem;
  chosen: boolean;
  onChoose: (item: RevisionItem) => void;
  texts: K["texts"];
}

/** One item of a page's list: its changes open under it; Restore asks, then publishes it again. */
function LiveRow({
  item,
  chosen,
  onChoose,
  texts,
  current,
  onRestore,
  children,
}: RowProps<LiveRevisions<unknown>> & { current: boolean; onRestore: () => void; children: ReactNode }) {
  const title = texts.version(item.number);
  const toggleLabel = chosen ? texts.hideChanges : texts.showChanges;
  return (
    <li className="flex flex-col gap-2 border-b border-neutral-200 pb-3 last:border-b-0">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-semibold">{title}</span>
        {/* The original copy was never published by anyone: no time or name. */}
        <span className="text-sm text-neutral-700">
          {item.at === null ? "" : `${shortTime(item.at)} ${item.by ? texts.by(item.by) : ""}`}
        </span>
        {current && (
          <span className="rounded-full bg-brand-100 px-2 py-0.5 text-sm font-medium text-brand-900">
            {texts.current}
          </span>
        )}
      </div>
      {!current && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            aria-expanded={chosen}
            aria-label={`${toggleLabel}: ${title}`}
            onClick={() => onChoose(item)}
            className={smallButton}
          >
            {toggleLabel}
          </button>
          <button type="button" aria-label={`${texts.restore}: ${title}`} onClick={onRestore} className={smallButton}>
            {texts.restore}
          </button>
        </div>
      )}
      {chosen && children}
    </li>
  );
}

export function RevisionsPanel<R>({ revisions, level = 3 }: { revisions: Revisions<R>; level?: 2 | 3 }) {
  const id = useId();
  const { texts } = revisions;
  const form = revisions.restoreInto === "form" ? revisions : undefined;
  const live = revisions.restoreInto === "live" ? revisions : undefined;
  // A post's list costs a request: it loads when shown. A page's came with the page.
  const [shown, setShown] = useState(!form);
  const list = useRevisionList(revisions, shown);
  const { chosen, toggle, clear } = useChosenRevision(revisions);
  const [restored, setRestored] = useState<number>();
  const Heading = level === 2 ? "h2" : "h3";
  const SubHeading = level === 2 ? "h3" : "h4";

  const chosenBody = chosen && (
    <>
      {chosen.error && (
        <p role="alert" className="text-sm text-red-800">
          {texts.failed(chosen.error)}
        </p>
      )}
      {!chosen.revision && !chosen.error && <p className="text-sm">{texts.loadingOne}</p>}
      {chosen.revision && (
        <Comparison changes={revisions.changes(chosen.revision)} number={chosen.item.number} texts={texts} />
      )}
    </>
  );

  return (
    <section aria-labelledby={`${id}-heading`} className="mt-8 rounded-md border border-neutral-300 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Heading id={`${id}-heading`} className={level === 2 ? "text-xl font-semibold" : "text-lg font-semibold"}>
          {texts.heading}
        </Heading>
        {form && (
          <button
            type="button"
            aria-expanded={shown}
            aria-controls={`${id}-body`}
            onClick={() => {
              setShown(!shown);
              list.forget();
              clear();
            }}
            className={smallButton}
          >
            {shown ? form.texts.hide : form.texts.show}
          </button>
        )}
      </div>
      <div id={`${id}-body`} hidden={!shown} className="mt-1">
        {shown && (
          <>
            <p className="text-sm text-neutral-700">{texts.intro}</p>
            <div aria-live="polite" className="text-sm">
              {form && !list.items && !list.error && <p className="mt-2">{form.texts.loading}</p>}
              {restored !== undefined && <p className="mt-2 font-medium">{texts.restored(restored)}</p>}
            </div>
            {list.error && (
              <p role="alert" className="mt-2 text-sm text-red-800">
                {texts.failed(list.error)}
              </p>
            )}
            {form && list.items?.length === 0 && <p className="mt-2 text-sm">{form.texts.empty}</p>}
            {list.items && list.items.length > 0 && (
              <ol className={form ? "mt-2 flex max-h-64 flex-col gap-1 overflow-y-auto" : "mt-4 flex flex-col gap-3"}>
                {list.items.map((item) => {
                  const props = { item, chosen: chosen?.item.id === item.id, onChoose: toggle };
                  return live ? (
                    <LiveRow
                      key={item.id}
                      {...props}
                      texts={live.texts}
                      current={live.isCurrent(item)}
                      onRestore={() => live.restore(item)}
                    >
                      {chosenBody}
                    </LiveRow>
                  ) : (
                    form && <FormRow key={item.id} {...props} texts={form.texts} />
                  );
                })}
              </ol>
            )}
            {form && chosen && (
              <div className="mt-4 flex flex-col gap-3 border-t border-neutral-200 pt-4">
                <SubHeading className="font-semibold">{form.texts.compareHeading(chosen.item.number)}</SubHeading>
                <p className="text-sm text-neutral-700">
                  {shortTime(chosen.item.at ?? "")}
                  {chosen.item.by && ` · ${chosen.item.by}`}
                </p>
                {chosenBody}
                {chosen.revision && (
                  <div>
                    <button
                      type="button"
                      onClick={() => {
                        form.apply(chosen.revision!);
                        setRestored(chosen.item.number);
                        clear();
                      }}
                      className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
                    >
                      {form.texts.restore}
                    </button>
                  </div>
                )}
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
