import * as Dialog from "@radix-ui/react-dialog";
import { useId, useRef, useState } from "react";
import { DELETE_CONFIRMATION } from "./post-draft";

/**
 * The post list's delete confirmation (docs/product/contract.md#admin-alerts), with the choice
 * to delete the images only this post uses (ADR 036): off by default, and
 * images other posts use are kept either way.
 */
export function DeletePostDialog({
  title,
  onConfirm,
  onCancel,
}: {
  /** The post's title; the dialog is open while it is set. */
  title: string | undefined;
  onConfirm: (options: { deleteImages: boolean }) => void;
  onCancel: () => void;
}) {
  const [deleteImages, setDeleteImages] = useState(false);
  const checkboxId = useId();
  const hintId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  // The row's Delete button that opened it: focus goes back there on Cancel.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root
      open={title !== undefined}
      onOpenChange={(open) => {
        if (!open) onCancel();
        setDeleteImages(false);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[70] bg-black/60" />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={(event) => {
            // A destructive question starts on its safe answer.
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            event.preventDefault();
            cancel.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
          }}
          className="fixed left-1/2 top-1/2 z-[70] max-h-[90dvh] w-[calc(100%-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-xl font-bold">Delete post</Dialog.Title>
          <Dialog.Description className="mt-2 text-neutral-800">{DELETE_CONFIRMATION}</Dialog.Description>
          <p className="mt-1 break-words font-medium">{title}</p>
          <div className="mt-4 flex items-start gap-3 rounded-md border border-neutral-200 bg-neutral-50 p-3">
            <input
              id={checkboxId}
              type="checkbox"
              checked={deleteImages}
              onChange={(event) => setDeleteImages(event.target.checked)}
              aria-describedby={hintId}
              className="mt-1 h-5 w-5 shrink-0 accent-red-700"
            />
            <div>
              <label htmlFor={checkboxId} className="font-medium">
                Also delete the images only this post uses
              </label>
              <p id={hintId} className="text-sm text-neutral-700">
                Images that other posts use are kept.
              </p>
            </div>
          </div>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Dialog.Close asChild>
              <button
                ref={cancel}
                type="button"
                className="min-h-10 rounded-md border border-neutral-400 px-4 py-2 font-medium hover:bg-neutral-100"
              >
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              onClick={() => {
                onConfirm({ deleteImages });
                setDeleteImages(false);
              }}
              className="min-h-10 rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800"
            >
              Delete
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
