import { useId, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";
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
  return (
    <ConfirmDialog
      open={title !== undefined}
      onOpenChange={(open) => {
        if (!open) onCancel();
        setDeleteImages(false);
      }}
      // A destructive question starts on its safe answer.
      focusOnOpen={() => cancel.current?.focus()}
      title="Delete post"
      description={DELETE_CONFIRMATION}
    >
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
      <DialogActions cancelRef={cancel}>
        <DialogAction
          tone="danger"
          onClick={() => {
            onConfirm({ deleteImages });
            setDeleteImages(false);
          }}
        >
          Delete
        </DialogAction>
      </DialogActions>
    </ConfirmDialog>
  );
}
