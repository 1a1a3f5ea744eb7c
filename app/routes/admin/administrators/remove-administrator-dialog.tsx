import { useRef } from "react";
import { Form } from "react-router";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";

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
  const question = target?.self
    ? "Remove yourself as an administrator? You will be signed out and cannot sign in again."
    : `Remove ${target?.label} as an administrator? They are signed out at once.`;
  return (
    <ConfirmDialog
      open={target !== undefined}
      onOpenChange={(open) => !open && onCancel()}
      // The next step is the password; the removal itself still needs its button.
      focusOnOpen={() => passwordField.current?.querySelector("input")?.focus()}
      title={target?.self ? "Remove yourself" : "Remove an administrator"}
      description={`${question} Invitations they made that nobody used yet are withdrawn.`}
    >
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
        <DialogActions inForm>
          <DialogAction tone="danger" type="submit" disabled={busy}>
            {busy ? "Removing..." : target?.self ? "Remove myself" : "Remove"}
          </DialogAction>
        </DialogActions>
      </Form>
    </ConfirmDialog>
  );
}
