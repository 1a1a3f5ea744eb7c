import { useCallback, useRef, useState } from "react";
import { restoreText as text } from "~/content/backup-restore";
import { RESTORE_FILE_FIELD, RESTORE_PASSWORD_FIELD, RESTORE_PATH, type RestoreResult } from "~/lib/backup";

/**
 * Sends a restore to POST /api/admin/backups/restore from the page (ADR
 * 078), not through the route's action: the restore signs everybody out, so
 * the revalidation after an action would land on the sign-in page and lose
 * the answer. XMLHttpRequest, not fetch, for the upload's progress.
 */

export type RestoreSource = { kind: "file"; file: File } | { kind: "stored"; key: string };

export type RestoreState =
  | { phase: "idle" }
  | { phase: "uploading"; percent: number }
  | { phase: "restoring" }
  /** `password`: the refusal belongs beside the password field. A new object each time, announced again. */
  | { phase: "refused"; error: string; password: boolean }
  | { phase: "done"; result: RestoreResult };

const SIGNED_OUT = "Authentication required";

/** The refusal's message: the API's `{error}`, else a general one (a proxy's page, a lost connection). */
function refusalOf(status: number, body: string): { error: string; password: boolean } {
  let error: string | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === "string" && parsed.error) error = parsed.error;
  } catch {
    // Not the API's JSON.
  }
  if (status === 0) return { error: text.lost, password: false };
  if (error === SIGNED_OUT) return { error: text.signedOut, password: false };
  const password = status === 403 || status === 429 || (status === 400 && /password/i.test(error ?? ""));
  return { error: error ?? text.failed, password };
}

export function useRestore() {
  const [state, setState] = useState<RestoreState>({ phase: "idle" });
  const request = useRef<XMLHttpRequest>(undefined);

  const start = useCallback((source: RestoreSource, password: string) => {
    const xhr = new XMLHttpRequest();
    request.current = xhr;
    xhr.open("POST", RESTORE_PATH);
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      const percent = Math.min(100, Math.floor((event.loaded / event.total) * 100));
      setState(percent >= 100 ? { phase: "restoring" } : { phase: "uploading", percent });
    };
    xhr.upload.onload = () => setState({ phase: "restoring" });
    xhr.onload = () => {
      request.current = undefined;
      if (xhr.status === 200) {
        setState({ phase: "done", result: JSON.parse(xhr.responseText) as RestoreResult });
      } else {
        setState({ phase: "refused", ...refusalOf(xhr.status, xhr.responseText) });
      }
    };
    xhr.onerror = () => {
      request.current = undefined;
      setState({ phase: "refused", ...refusalOf(0, "") });
    };
    if (source.kind === "file") {
      const form = new FormData();
      // The password first: the server checks it before it keeps a byte of the file.
      form.append(RESTORE_PASSWORD_FIELD, password);
      form.append(RESTORE_FILE_FIELD, source.file, source.file.name);
      setState({ phase: "uploading", percent: 0 });
      xhr.send(form);
    } else {
      xhr.setRequestHeader("Content-Type", "application/json");
      setState({ phase: "restoring" });
      xhr.send(JSON.stringify({ key: source.key, password }));
    }
  }, []);

  /** Stops an upload on its way (nothing is replaced before the file has arrived whole). */
  const cancel = useCallback(() => {
    request.current?.abort();
    request.current = undefined;
    setState({ phase: "idle" });
  }, []);

  return { state, start, cancel };
}
