/**
 * The frame of the admin's destructive questions (deleting a post, removing
 * an administrator): a Radix alert dialog over the screen that focuses what
 * the caller says when it opens and gives focus back to the button that
 * opened it on the way out.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { type ReactNode, useRef } from "react";

export function ConfirmDialog({
  open,
  onOpenChange,
  focusOnOpen,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Focuses the question's first stop (its safe answer, or the field it needs). */
  focusOnOpen: () => void;
  title: ReactNode;
  description: ReactNode;
  /** Anything between the question and its buttons, and the buttons (DialogActions). */
  children: ReactNode;
}) {
  // The row's button that opened it: focus goes back there on Cancel.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[70] bg-black/60" />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={(event) => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            event.preventDefault();
            focusOnOpen();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
          }}
          className="fixed left-1/2 top-1/2 z-[70] max-h-[90dvh] w-[calc(100%-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-xl font-bold">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-neutral-800">{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
