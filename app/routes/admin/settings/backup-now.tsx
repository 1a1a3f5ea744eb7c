import { useRef, useState } from "react";
import { backupsText } from "~/content/backups";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";
import { BACKUP_RUN_PATH } from "~/lib/backup";

/** The answer's `{error}`, or the general message when the answer is not the API's JSON. */
async function refusalOf(response: Response): Promise<string> {
  if (response.status === 401) return backupsText.signedOut;
  try {
    const { error } = (await response.json()) as { error?: unknown };
    if (typeof error === "string" && error) return error;
  } catch {
    // A proxy's error page: the general message below.
  }
  return backupsText.failedToStart;
}

/**
 * Settings' "Back up now" (ADR 076): asks the administrator's password in a
 * dialog, as the download does (ADR 046: it sends the whole site out), then
 * POSTs it to /api/admin/backups/run. The answer is small JSON, so a fetch
 * (the download needs a frame: its answer is a file). A refusal stays in the
 * dialog under the field; a 202 closes it and says the backup started.
 */
export function BackupNow() {
  const [open, setOpen] = useState(false);
  const [waiting, setWaiting] = useState(false);
  /** A new object for each refusal, so the same message twice is announced twice. */
  const [refusal, setRefusal] = useState<{ error: string }>();
  const [started, setStarted] = useState(false);
  const passwordField = useRef<HTMLDivElement>(null);

  const submit = async (form: HTMLFormElement) => {
    setWaiting(true);
    try {
      const password = new FormData(form).get("password");
      const response = await fetch(BACKUP_RUN_PATH, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ password: typeof password === "string" ? password : "" }),
      });
      if (response.status === 202) {
        setOpen(false);
        setStarted(true);
      } else setRefusal({ error: await refusalOf(response) });
    } catch {
      setRefusal({ error: backupsText.failedToStart });
    } finally {
      setWaiting(false);
    }
  };

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => {
          setRefusal(undefined);
          setStarted(false);
          setOpen(true);
        }}
        className="mt-4 inline-block rounded-md border border-brand-700 px-5 py-2.5 font-medium text-brand-800 hover:bg-brand-50"
      >
        {backupsText.button}
      </button>
      <div role="status">{started && <p className="mt-3 text-neutral-800">{backupsText.started}</p>}</div>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => !next && setOpen(false)}
        focusOnOpen={() => passwordField.current?.querySelector("input")?.focus()}
        title={backupsText.dialogTitle}
        description={backupsText.dialogDescription}
      >
        <form
          className="mt-4 flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!waiting) void submit(event.currentTarget);
          }}
        >
          <div ref={passwordField}>
            <CurrentPasswordField
              id="backup-now-password"
              label={backupsText.passwordLabel}
              error={refusal?.error}
              attempt={refusal}
            />
          </div>
          <DialogActions inForm>
            <DialogAction tone="primary" type="submit">
              {waiting ? backupsText.checking : backupsText.submit}
            </DialogAction>
          </DialogActions>
        </form>
      </ConfirmDialog>
    </>
  );
}
