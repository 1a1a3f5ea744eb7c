import { type Ref, useEffect, useId, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";
import { restoreText as text } from "~/content/backup-restore";
import { MAX_RESTORE_FILE_BYTES, STORED_BACKUPS_PATH, type RestoreResult, type StoredBackupJson } from "~/lib/backup";
import { type RestoreSource, type RestoreState, useRestore } from "./use-restore";

/**
 * Settings' "Restore from a backup" (ADR 078): pick a backup file (or a
 * stored backup when off-site storage is set), then a dialog says what will
 * be replaced and asks the password; the upload's progress, then the
 * restore's wait, show in the dialog; the result replaces the section's form,
 * since everybody, this administrator too, is signed out by it.
 */
export function BackupRestore({ storageConfigured }: { storageConfigured: boolean }) {
  const { state, start, cancel } = useRestore();
  const [kind, setKind] = useState<"file" | "stored">("file");
  const [file, setFile] = useState<File>();
  const [stored, setStored] = useState<{ key: string; label: string }>();
  const [missing, setMissing] = useState<string>();
  const [open, setOpen] = useState(false);
  const ids = useId();
  const result = useRef<HTMLDivElement>(null);

  // The result takes the section's place (and the dialog's, which goes with it): focus moves to it.
  useEffect(() => {
    if (state.phase === "done") result.current?.focus();
  }, [state.phase]);

  if (state.phase === "done") return <RestoreDone ref={result} result={state.result} />;

  const source: RestoreSource | undefined =
    kind === "file" ? (file ? { kind, file } : undefined) : stored ? { kind, key: stored.key } : undefined;
  const busy = state.phase === "uploading" || state.phase === "restoring";
  const missingId = `${ids}-missing`;

  return (
    <section aria-labelledby={`${ids}-heading`} className="mt-10 rounded-lg border border-neutral-200 bg-white p-5">
      <h2 id={`${ids}-heading`} className="text-lg font-semibold">
        {text.heading}
      </h2>
      <p className="mt-2 text-neutral-800">{text.intro}</p>
      <noscript>
        <p className="mt-2 font-medium text-neutral-900">{text.needsScript}</p>
      </noscript>
      <div className="mt-4 flex flex-col gap-4">
        {storageConfigured && (
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-semibold text-neutral-800">{text.sourceLegend}</legend>
            {(["file", "stored"] as const).map((value) => (
              <label key={value} className="flex min-h-10 items-center gap-2">
                <input
                  type="radio"
                  name="restore-source"
                  value={value}
                  checked={kind === value}
                  onChange={() => {
                    setKind(value);
                    setMissing(undefined);
                  }}
                  className="h-5 w-5"
                />
                {value === "file" ? text.sourceFile : text.sourceStored}
              </label>
            ))}
          </fieldset>
        )}
        {kind === "file" ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${ids}-file`} className="text-sm font-semibold text-neutral-800">
              {text.fileLabel}
            </label>
            <input
              id={`${ids}-file`}
              type="file"
              accept=".tar,application/x-tar"
              aria-describedby={`${ids}-file-hint${missing ? ` ${missingId}` : ""}`}
              aria-invalid={missing ? true : undefined}
              onChange={(event) => {
                setFile(event.target.files?.[0]);
                setMissing(undefined);
              }}
              className="text-base file:mr-3 file:min-h-10 file:rounded-md file:border file:border-neutral-400 file:bg-white file:px-4"
            />
            <p id={`${ids}-file-hint`} className="text-sm text-neutral-700">
              {text.fileHint}
            </p>
          </div>
        ) : (
          <StoredBackupPicker id={`${ids}-stored`} missingId={missing ? missingId : undefined} onPick={setStored} />
        )}
        {missing && (
          <p id={missingId} role="alert" className="text-sm font-medium text-red-800">
            {missing}
          </p>
        )}
        <div>
          <button
            type="button"
            aria-haspopup="dialog"
            onClick={() => {
              if (!source) return setMissing(kind === "file" ? text.chooseFile : text.chooseStored);
              // Said before the upload: the server's 413 would come mid-upload, as a lost connection.
              if (source.kind === "file" && source.file.size > MAX_RESTORE_FILE_BYTES) return setMissing(text.tooLarge);
              setOpen(true);
            }}
            className="inline-block min-h-10 rounded-md border border-red-700 px-5 py-2.5 font-medium text-red-800 hover:bg-red-50"
          >
            {text.open}
          </button>
        </div>
      </div>
      <RestoreDialog
        open={open && source !== undefined}
        what={
          source?.kind === "file" ? text.dialogWhatFile(source.file.name) : text.dialogWhatStored(stored?.label ?? "")
        }
        state={state}
        busy={busy}
        onConfirm={(password) => source && start(source, password)}
        onClose={() => {
          // Once the file has arrived the restore runs to its end: the dialog stays to show it.
          if (state.phase === "restoring") return;
          if (state.phase === "uploading") cancel();
          setOpen(false);
        }}
      />
    </section>
  );
}

function RestoreDialog({
  open,
  what,
  state,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  what: string;
  state: RestoreState;
  busy: boolean;
  onConfirm: (password: string) => void;
  onClose: () => void;
}) {
  const passwordField = useRef<HTMLDivElement>(null);
  const refusal = state.phase === "refused" ? state : undefined;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      focusOnOpen={() => passwordField.current?.querySelector("input")?.focus()}
      title={text.dialogTitle}
      description={text.dialogDescription(what)}
    >
      <form
        className="mt-4 flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (busy) return;
          const password = new FormData(event.currentTarget).get("password");
          onConfirm(typeof password === "string" ? password : "");
        }}
      >
        {refusal && !refusal.password && (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            <p className="font-semibold">{text.refused}</p>
            <p>{refusal.error}</p>
          </div>
        )}
        <div ref={passwordField}>
          <CurrentPasswordField
            id="restore-password"
            label={text.passwordLabel}
            error={refusal?.password ? refusal.error : undefined}
            attempt={refusal}
          />
        </div>
        <div role="status" className="text-sm text-neutral-800">
          {state.phase === "uploading" && (
            <>
              <p>{text.uploading(state.percent)}</p>
              <progress value={state.percent} max={100} aria-label={text.uploadLabel} className="mt-1 w-full" />
            </>
          )}
          {state.phase === "restoring" && <p>{text.restoring}</p>}
        </div>
        <DialogActions inForm>
          <DialogAction tone="danger" type="submit" disabled={busy}>
            {busy ? text.busyButton : text.confirm}
          </DialogAction>
        </DialogActions>
      </form>
    </ConfirmDialog>
  );
}

/** The stored backups, newest first, read when this choice is made (GET /api/admin/backups). */
function StoredBackupPicker({
  id,
  missingId,
  onPick,
}: {
  id: string;
  missingId: string | undefined;
  onPick: (picked: { key: string; label: string } | undefined) => void;
}) {
  const [listed, setListed] = useState<StoredBackupJson[] | "loading" | "failed">("loading");
  useEffect(() => {
    let current = true;
    fetch(`${STORED_BACKUPS_PATH}?limit=100`, { headers: { Accept: "application/json" } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const backups = (await response.json()) as StoredBackupJson[];
        if (current) setListed(backups);
      })
      .catch(() => current && setListed("failed"));
    return () => {
      current = false;
    };
  }, []);
  const status =
    listed === "loading"
      ? text.storedLoading
      : listed === "failed"
        ? text.storedFailed
        : listed.length === 0
          ? text.storedNone
          : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold text-neutral-800">
        {text.storedLabel}
      </label>
      <select
        id={id}
        defaultValue=""
        disabled={!Array.isArray(listed) || listed.length === 0}
        aria-describedby={[status && `${id}-status`, missingId].filter(Boolean).join(" ") || undefined}
        aria-invalid={missingId ? true : undefined}
        onChange={(event) => {
          const picked = Array.isArray(listed) ? listed.find((backup) => backup.key === event.target.value) : undefined;
          onPick(picked && { key: picked.key, label: text.storedOption(picked.lastModified, picked.size) });
        }}
        className="h-11 w-full rounded-md border border-neutral-400 px-3 text-base"
      >
        <option value="" disabled>
          {text.storedLabel}
        </option>
        {Array.isArray(listed) &&
          listed.map((backup) => (
            <option key={backup.key} value={backup.key}>
              {text.storedOption(backup.lastModified, backup.size)}
            </option>
          ))}
      </select>
      <p id={`${id}-status`} role="status" className="text-sm text-neutral-700">
        {status}
      </p>
    </div>
  );
}

function RestoreDone({ ref, result }: { ref: Ref<HTMLDivElement>; result: RestoreResult }) {
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="restore-done-heading"
      className="mt-10 rounded-lg border border-brand-600 bg-brand-50 p-5 text-brand-900 outline-none"
    >
      <h2 id="restore-done-heading" className="text-lg font-semibold">
        {text.doneHeading}
      </h2>
      <p className="mt-2">{text.doneMade(result)}</p>
      <p className="mt-1">{text.doneCounts(result.rows)}</p>
      {result.notices.length > 0 && (
        <>
          <p className="mt-3 font-medium">{text.doneNotices}</p>
          <ul className="mt-1 list-disc pl-5">
            {result.notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
        </>
      )}
      <p className="mt-3 font-medium">{text.doneSignedOut}</p>
      {/* A whole page load: the screen's data belongs to a session that has ended. */}
      <a
        href="/admin/login"
        className="mt-3 inline-block rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800"
      >
        {text.signIn}
      </a>
    </section>
  );
}
