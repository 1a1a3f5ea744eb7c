/**
 * The button row at the foot of the admin's dialogs: the way back, which
 * closes the dialog as Escape and a click outside do, then the dialog's one
 * action. Used inside a Radix dialog (ConfirmDialog or a Dialog.Root).
 */
import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode, Ref } from "react";

export function DialogActions({
  cancelLabel = "Cancel",
  cancelRef,
  inForm = false,
  children,
}: {
  cancelLabel?: string;
  /** For a question that starts on its safe answer. */
  cancelRef?: Ref<HTMLButtonElement>;
  /** In a form whose gap already spaces it, the row adds no margin of its own. */
  inForm?: boolean;
  /** The action: a DialogAction. */
  children: ReactNode;
}) {
  return (
    <div className={`${inForm ? "" : "mt-6 "}flex flex-wrap justify-end gap-3`}>
      <Dialog.Close asChild>
        <button
          ref={cancelRef}
          type="button"
          className="min-h-10 rounded-md border border-neutral-400 px-4 py-2 font-medium hover:bg-neutral-100"
        >
          {cancelLabel}
        </button>
      </Dialog.Close>
      {children}
    </div>
  );
}

const toneClasses = {
  primary: "bg-brand-700 hover:bg-brand-800",
  danger: "bg-red-700 hover:bg-red-800",
};

/** The dialog's action: red where it destroys something. */
export function DialogAction({
  tone,
  type = "button",
  disabled,
  onClick,
  children,
}: {
  tone: keyof typeof toneClasses;
  /** "submit" sends the dialog's form. */
  type?: "button" | "submit";
  disabled?: boolean;
  onClick?: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type={type}
      disabled={disabled}
      onClick={onClick}
      className={`min-h-10 rounded-md px-4 py-2 font-semibold text-white disabled:opacity-60 ${toneClasses[tone]}`}
    >
      {children}
    </button>
  );
}
