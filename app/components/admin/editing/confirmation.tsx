/**
 * The question an editor asks before a step that replaces text (restore,
 * discard, reset), and the one dialog that asks it, starting on Cancel.
 */
import { useRef } from "react";
import { ConfirmDialog } from "../confirm-dialog";
import { DialogAction, DialogActions } from "../dialog-actions";

export interface Confirmation {
  title: string;
  description: string;
  confirm: string;
  run: () => void;
}

export function ConfirmationDialog({
  confirmation,
  onDone,
}: {
  confirmation: Confirmation | null;
  /** Answered either way: the editor forgets the question. */
  onDone: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <ConfirmDialog
      open={confirmation !== null}
      onOpenChange={(open) => !open && onDone()}
      focusOnOpen={() => cancel.current?.focus()}
      title={confirmation?.title}
      description={confirmation?.description}
    >
      <DialogActions cancelRef={cancel}>
        <DialogAction
          tone="primary"
          onClick={() => {
            confirmation?.run();
            onDone();
          }}
        >
          {confirmation?.confirm}
        </DialogAction>
      </DialogActions>
    </ConfirmDialog>
  );
}
