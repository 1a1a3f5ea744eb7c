import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import {
  BACKUP_PATH,
  BACKUP_STARTED_COOKIE,
  BACKUP_STARTED_COOKIE_PATH,
  DOWNLOAD_ID_FIELD,
  isDownloadId,
} from "~/lib/backup";
import { recordAudit } from "../audit/index.server";
import { checkOwnPassword, getAdmin, PASSWORD_MISSING, PASSWORD_REQUIRED, getTotpKey } from "../identity/index.server";
import { BoundedWork } from "../platform/bounded-work.server";
import { getConfig } from "../platform/config.server";
import { getConnection } from "../db/index.server";
import { BODY_LIMITS, jsonError, readFormBody, readJsonBody, refusedAttempt } from "../platform/http.server";
import { getLogger } from "../platform/logger.server";
import { writeBackup } from "./write.server";

export { BACKUP_PATH } from "~/lib/backup";

/** One backup download at a time per process: each holds a database snapshot and up to an image in memory. */
const backupWork = new BoundedWork(1, 1);
const BACKUP_BUSY_MESSAGE = "A backup is already being downloaded from this server: try again when it has finished";

/** site-backup-2026-11-25T0930Z.tar */
function backupFileName(now = new Date()): string {
  return `site-backup-${now.toISOString().slice(0, 16).replace(/:/g, "")}Z.tar`;
}

function answerJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/** A refusal the shared helpers (body readers, password check) made as a Fetch Response, sent as it is. */
async function answerResponse(res: ServerResponse, response: Response) {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = await response.text();
  res.writeHead(response.status, { "Cache-Control": "no-store", ...headers });
  res.end(body);
}

/** The POST as the shared helpers read it (session, body readers, audit): its body and the headers they look at. */
function fetchRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const name of ["cookie", "content-type", "content-length", "user-agent"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(new URL(BACKUP_PATH, "http://localhost"), {
    method: "POST",
    headers,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
}

interface Asked {
  /** Undefined: missing, empty or longer than any password. */
  password: string | undefined;
  /** The Settings screen's id for the cookie that says the download started. */
  downloadId: string | undefined;
  /** An HTML form (the screen's words for a missing password) or JSON (the API's). */
  form: boolean;
}

/**
 * The password from a JSON body or an HTML form post (what the Settings
 * screen sends), read with the bounded readers: a password is small, so the
 * form limit applies to both. No body at all is a missing password; any
 * other type is 415. Throws the readers' Response refusals.
 */
async function readAsked(request: Request): Promise<Asked> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  const text = (value: unknown) =>
    typeof value === "string" && value.length > 0 && value.length <= MAX_PASSWORD_LENGTH ? value : undefined;
  const id = (value: unknown) => (typeof value === "string" && isDownloadId(value) ? value : undefined);
  if (type === "") return { password: undefined, downloadId: undefined, form: false };
  if (type === "application/json") {
    const body = await readJsonBody(request, BODY_LIMITS.form);
    const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
    return { password: text(fields.password), downloadId: id(fields[DOWNLOAD_ID_FIELD]), form: false };
  }
  if (type === "application/x-www-form-urlencoded") {
    const form = await readFormBody(request, BODY_LIMITS.form);
    return { password: text(form.get("password")), downloadId: id(form.get(DOWNLOAD_ID_FIELD)), form: true };
  }
  throw jsonError(415, "Send your current password as the JSON field password, or as a form field");
}

/** The cookie that tells the Settings screen its download started (app/lib/backup.ts). */
function startedCookie(downloadId: string): string {
  const secure = getConfig().secureCookies ? "; Secure" : "";
  return `${BACKUP_STARTED_COOKIE}=${downloadId}; Path=${BACKUP_STARTED_COOKIE_PATH}; Max-Age=120; SameSite=Strict${secure}`;
}

/**
 * POST /api/admin/backup with the current password (JSON or form field
 * `password`): the whole site as one file (ADR 034), streamed into the socket
 * as it is read. The file holds every administrator's password hash, the
 * inbox and the audit log, so a session alone does not get it: the password
 * is asked again and counted as the other sensitive actions' are (ADR 046:
 * 400 missing, 403 wrong, 429 throttled, 503 busy), and each download is an
 * audit entry. A POST, not a GET: a link, a prefetch or an image tag cannot
 * start one, and the password is never in an address.
 *
 * The tar goes to the response through a stream pipeline, each entry waiting
 * for the socket to take the one before, so a process holds about one image
 * whatever the size of the site. A client that goes away ends the backup and
 * its snapshot.
 *
 * Answered by the server (server/app.ts, after its cross-origin and body-size
 * checks), not a React Router resource route: React Router 7.18's adapter
 * keeps every chunk of a streamed body until the answer ends
 * (writeReadableStreamToWritable races each read against one promise that
 * never settles), so a 550 MB backup held 550 MB.
 */
export async function sendBackup(req: IncomingMessage, res: ServerResponse, clientAddress: string): Promise<void> {
  if (req.method !== "POST") return answerJson(res, 405, { error: "Method not allowed" }, { Allow: "POST" });
  const request = fetchRequest(req);
  const admin = await getAdmin(request);
  if (!admin) return answerJson(res, 401, { error: "Authentication required" });
  let asked: Asked;
  try {
    asked = await readAsked(request);
    if (!asked.password) throw jsonError(400, asked.form ? PASSWORD_MISSING : PASSWORD_REQUIRED);
    const check = await checkOwnPassword(admin, asked.password, clientAddress);
    if (!check.ok) throw refusedAttempt(check);
  } catch (error) {
    if (error instanceof Response) return answerResponse(res, error);
    throw error;
  }
  const admission = backupWork.tryAdmit();
  if (!admission) return answerJson(res, 503, { error: BACKUP_BUSY_MESSAGE }, { "Retry-After": "30" });
  const log = getLogger();
  const fileName = backupFileName();
  try {
    await recordAudit({ action: "backup-downloaded", admin, target: fileName, request, clientAddress });
    res.writeHead(200, {
      "Content-Type": "application/x-tar",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
      ...(asked.downloadId ? { "Set-Cookie": startedCookie(asked.downloadId) } : {}),
    });
    const started = Date.now();
    const pack = tar.pack();
    const [counts] = await Promise.all([writeBackup(getConnection(), pack, getTotpKey()?.key), pipeline(pack, res)]);
    log.info({ by: admin.email, rows: counts.rows, ms: Date.now() - started }, "backup downloaded");
  } catch (error) {
    // Headers are sent: the client sees a cut-off file, which a restore refuses.
    log.warn({ by: admin.email, err: error }, "backup download ended early");
    res.destroy();
  } finally {
    admission.release();
  }
}
