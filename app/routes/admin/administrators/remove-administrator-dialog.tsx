import * as Dialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import { Form } from "react-router";
import { CurrentPasswordField } from "~/components/admin/current-password-field";

export interface RemovalTarget {
  id: string;
  /** Their name, or their e-mail when they have none. */
  label: string;
  self: boolean;
}

/**
 * The Administrators screen's removal question, which asks the remover's
 * password in the same form (ADR 046): a borrowed session alone cannot remove
 * anyone. It stays open on a refusal, with the message beside the field (a
 * wrong password) or atop the form (the last administrator), and closes when
 * the removal is done.
 */
export function RemoveAdministratorDialog({
  target,
  refusal,
  busy,
  onCancel,
}: {
  /** Open while set. */
  target: RemovalTarget | undefined;
  /** The answer to this removal when it was refused: `field` says whether it belongs beside the password. */
  refusal: { error?: string; field?: "password" } | undefined;
  busy: boolean;
  onCancel: () => void;
}) {
  const passwordField = useRef<HTMLDivElement>(null);
  // The row's Remove button that opened it: focus goes back there on Cancel.
  const opener = useRef<HTMLElement | null>(null);
  const question = target?.self
    ? "Remove yourself as an administrator? You will be signed out and cannot sign in again."
    : `Remove ${target?.label} as an administrator? They are signed out at once.`;
  return (
    <Dialog.Root open={target !== undefined} onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[70] bg-black/60" />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={(event) => {
            // The next step is the password; the removal itself still needs its button.
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            event.preventDefault();
            passwordField.current?.querySelector("input")?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
          }}
          className="fixed left-1/2 top-1/2 z-[70] max-h-[90dvh] w-[calc(100%-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-xl font-bold">
            {target?.self ? "Remove yourself" : "Remove an administrator"}
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-neutral-800">
            {question} Invitations they made that nobody used yet are withdrawn.
          </Dialog.Description>
          <Form method="post" className="mt-4 flex flex-col gap-4">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="id" value={target?.id ?? ""} />
            {refusal?.error && refusal.field !== "password" && (
              <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
                {refusal.error}
              </p>
            )}
            <div ref={passwordField}>
              <CurrentPasswordField
                id="remove-password"
                label="Your password, to confirm"
                error={refusal?.field === "password" ? refusal.error : undefined}
                attempt={refusal}
              />
            </div>
            <div className="flex flex-wrap justify-end gap-3">
              <Dialog.Close asChild>
                <button
                  type="button"
                  className="min-h-10 rounded-md border border-neutral-400 px-4 py-2 font-medium hover:bg-neutral-100"
                >
                  Cancel
                </button>
              </Dialog.Close>
              <button
                type="submit"
                disabled={busy}
                className="min-h-10 rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
              >
                {busy ? "Removing..." : target?.self ? "Remove myself" : "Remove"}
              </button>
            </div>
          </Form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
