import { useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { CurrentPasswordField } from "~/components/admin/current-password-field";
import { DialogAction, DialogActions } from "~/components/admin/dialog-actions";
import { BACKUP_PATH, BACKUP_STARTED_COOKIE, BACKUP_STARTED_COOKIE_PATH, DOWNLOAD_ID_FIELD } from "~/lib/backup";

/** The hidden frame the password form is sent to. */
const FRAME_NAME = "backup-download";
/** How often the page looks for the cookie that says the download started. */
const POLL_MS = 200;
const SIGNED_OUT = "Authentication required";

/** A random id for this attempt (crypto.randomUUID needs a secure context; this does not). */
function newDownloadId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether the download answer set the started cookie to `id`; the cookie is removed once seen. */
function takeStartedCookie(id: string): boolean {
  const seen = document.cookie.split("; ").includes(`${BACKUP_STARTED_COOKIE}=${id}`);
  if (seen)
    document.cookie = `${BACKUP_STARTED_COOKIE}=; Path=${BACKUP_STARTED_COOKIE_PATH}; Max-Age=0; SameSite=Strict`;
  return seen;
}

/** The refusal the frame shows: the API's JSON `{error}` (wrong password, throttled, busy, signed out). */
function refusalIn(frame: HTMLIFrameElement): string {
  try {
    const document = frame.contentDocument;
    const text = document?.querySelector("pre")?.textContent ?? document?.body?.textContent ?? "";
    const { error } = JSON.parse(text) as { error?: unknown };
    if (error === SIGNED_OUT) return "You have been signed out. Sign in again, then download the backup.";
    if (typeof error === "string" && error) return error;
  } catch {
    // Not the API's JSON (a proxy's error page): the general message below.
  }
  return "The backup could not be downloaded. Try again in a moment.";
}

/**
 * Settings' "Download backup": asks the administrator's password in a dialog
 * (ADR 046: the file holds every password hash, the inbox and the audit log),
 * then lets the browser download the file as any other.
 *
 * The dialog's form is a plain HTML form post (POST /api/admin/backup) into a
 * hidden frame of this page, so the browser itself receives the answer:
 * - the file (Content-Disposition: attachment) goes to the browser's
 *   downloads, streamed to disk however large, and the page stays as it is.
 *   A page is told nothing when a frame's answer becomes a download, so the
 *   answer also sets a short-lived cookie to the id this form sent; seeing
 *   it, the dialog closes and says the download started.
 * - a refusal (wrong password, too many tries, busy) is the API's JSON, shown
 *   in the frame (the answer may be framed by this site's pages alone): its
 *   load event reads the message, and the dialog shows it under the field,
 *   what was typed kept and selected.
 * Reading the file through fetch instead would hold it in the page's memory
 * (a Blob of 500 MB), and checking the password first with a separate call
 * would check it twice.
 */
export function BackupDownload() {
  const [open, setOpen] = useState(false);
  /**
   * The id the form sends next: in the form before it is submitted (a value
   * set during the submit event would be undone by React's render).
   */
  const [downloadId, setDownloadId] = useState("");
  /** The id of the attempt on its way, while the answer is awaited. */
  const [waitingFor, setWaitingFor] = useState<string>();
  /** A new object for each refusal, so the same message twice is announced twice. */
  const [refusal, setRefusal] = useState<{ error: string }>();
  const [started, setStarted] = useState(false);
  /**
   * The frame exists from the first opening on, and stays (removing it would
   * end a download on its way): a page without it is one frame less for the
   * browser, and for axe in the tests.
   */
  const [framed, setFramed] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const passwordField = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!waitingFor) return;
    const timer = setInterval(() => {
      if (!takeStartedCookie(waitingFor)) return;
      setWaitingFor(undefined);
      setOpen(false);
      setStarted(true);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waitingFor]);

  const close = () => {
    setOpen(false);
    setWaitingFor(undefined);
  };

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => {
          setRefusal(undefined);
          setStarted(false);
          setDownloadId(newDownloadId());
          setFramed(true);
          setOpen(true);
        }}
        className="mt-4 inline-block rounded-md border border-brand-700 px-5 py-2.5 font-medium text-brand-800 hover:bg-brand-50"
      >
        Download backup
      </button>
      <div role="status">
        {started && (
          <p className="mt-3 text-neutral-800">
            The backup is downloading: find it with your browser&apos;s other downloads. A site with many images takes a
            few minutes.
          </p>
        )}
      </div>
      {framed && (
        <iframe
          ref={frame}
          name={FRAME_NAME}
          title="Backup download"
          hidden
          tabIndex={-1}
          onLoad={() => {
            // The frame loads a page only for a refusal: a file goes to the downloads without one.
            if (!waitingFor || !frame.current) return;
            setWaitingFor(undefined);
            setRefusal({ error: refusalIn(frame.current) });
            setDownloadId(newDownloadId());
          }}
        />
      )}
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => !next && close()}
        focusOnOpen={() => passwordField.current?.querySelector("input")?.focus()}
        title="Download a backup"
        description="The file holds the whole site, with every administrator's password hash and all contact messages: keep it as private as the server. Your download is noted in the audit log."
      >
        <form
          method="post"
          action={BACKUP_PATH}
          target={FRAME_NAME}
          className="mt-4 flex flex-col gap-4"
          onSubmit={(event) => {
            // One attempt at a time; the button stays enabled, so focus stays on it meanwhile.
            if (waitingFor) return event.preventDefault();
            setWaitingFor(downloadId);
          }}
        >
          <input type="hidden" name={DOWNLOAD_ID_FIELD} value={downloadId} />
          <div ref={passwordField}>
            <CurrentPasswordField
              id="backup-password"
              label="Your password, to confirm"
              error={refusal?.error}
              attempt={refusal}
            />
          </div>
          <DialogActions inForm>
            <DialogAction tone="primary" type="submit">
              {waitingFor ? "Checking..." : "Download"}
            </DialogAction>
          </DialogActions>
        </form>
      </ConfirmDialog>
    </>
  );
}
