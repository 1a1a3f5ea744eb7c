/**
 * The check before publishing in the editor (ADR 057): a dialog asks when a
 * save that publishes or schedules finds problems in the text; each item
 * goes to its place in the markdown (selected and focused), and "Publish
 * anyway" saves. Closed, the same list stays under the text to click through.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";
import { problemText, publishCheckText as text } from "~/content/publish-check";
import type { PublishCheckState } from "../use-post-editing";
import { hintClass } from "./fields";
import { type CheckItem, lineAt, placeNow } from "./publish-check-place";

function CheckList({
  items,
  content,
  onGo,
}: {
  items: CheckItem[];
  /** The text now: each item shows its line, or that it has changed since. */
  content: string;
  onGo: (item: CheckItem) => void;
}) {
  return (
    <ul className="flex flex-col gap-2">
      {items.map((item) => {
        const place = placeNow(content, item.snippet, item.problem.start);
        return (
          <li key={`${item.problem.kind}-${item.problem.start}`}>
            <button
              type="button"
              onClick={() => onGo(item)}
              disabled={!place}
              className="w-full rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-left text-sm text-neutral-900 hover:bg-amber-100 disabled:opacity-70"
            >
              <span className="font-semibold">{place ? text.line(lineAt(content, place.start)) : text.gone}:</span>{" "}
              <span className="break-words">{problemText(item.problem)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function PublishCheckDialog({
  check,
  content,
  onGo,
  onPublishAnyway,
  onStopAsking,
}: {
  check: PublishCheckState | undefined;
  content: string;
  onGo: (item: CheckItem) => void;
  onPublishAnyway: () => void;
  onStopAsking: () => void;
}) {
  // The item chosen: focus goes to its place in the text, not back to Save.
  const chosen = useRef<CheckItem>(undefined);
  return (
    <Dialog.Root open={check?.asking ?? false} onOpenChange={(open) => !open && onStopAsking()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[70] bg-black/60" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            const item = chosen.current;
            chosen.current = undefined;
            if (!item) return;
            event.preventDefault();
            onGo(item);
          }}
          className="fixed left-1/2 top-1/2 z-[70] max-h-[90dvh] w-[calc(100%-1.5rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-xl font-bold">{text.title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-neutral-800">
            {text.intro(check?.items.length ?? 0)}
          </Dialog.Description>
          {check?.more && <p className={`mt-2 ${hintClass}`}>{text.more}</p>}
          <div className="mt-4">
            <CheckList
              items={check?.items ?? []}
              content={content}
              onGo={(item) => {
                chosen.current = item;
                onStopAsking();
              }}
            />
          </div>
          <DialogActions cancelLabel={text.back}>
            <DialogAction tone="primary" onClick={onPublishAnyway}>
              {text.anyway}
            </DialogAction>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The same list under the text once the dialog is closed, until the next save. */
export function PublishCheckList({
  check,
  content,
  onGo,
}: {
  check: PublishCheckState | undefined;
  content: string;
  onGo: (item: CheckItem) => void;
}) {
  if (!check || check.asking) return null;
  return (
    <section aria-label={text.listHeading} className="rounded-md border border-amber-300 bg-amber-50/40 p-4">
      <h3 className="font-semibold text-neutral-900">{text.listHeading}</h3>
      <p className={`mb-3 ${hintClass}`}>
        {text.listHint} {check.more && text.more}
      </p>
      <CheckList items={check.items} content={content} onGo={onGo} />
    </section>
  );
}
