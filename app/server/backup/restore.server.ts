import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { MAX_PASSWORD_LENGTH } from "~/lib/account";
import { MAX_RESTORE_FILE_BYTES, RESTORE_FILE_FIELD, RESTORE_PASSWORD_FIELD, type RestoreResult } from "~/lib/backup";
import { recordAudit } from "../audit/index.server";
import { connect, type Connection } from "../db/db.server";
import { type AdminUser, checkOwnPassword, getTotpKey, PASSWORD_REQUIRED } from "../identity/index.server";
import { getConfig } from "../platform/config.server";
import { BODY_LIMITS, bodyTooLarge, jsonError, refusedAttempt } from "../platform/http.server";
import { getLogger } from "../platform/logger.server";
import { BackupError } from "./format.server";
import { readBackupFile, restoreBackup } from "./read.server";
import { type RestoreLease, takeRestoreLease } from "./restore-lease.server";

/**
 * Restore from the admin (ADR 078): the backup file arrives (an upload, or
 * a stored backup fetched from off-site storage) into a lease's temporary
 * file, is checked whole as the CLI checks it, and is then restored with
 * replace, in one transaction, inside the request: the answer is the only
 * place the result can be read, since the restore signs everybody out.
 */

export interface Restorer {
  admin: AdminUser;
  request: Request;
  clientAddress: string;
}

const BUSY_MESSAGE = "A restore is already running: wait for it to finish";
const tooLarge = () =>
  bodyTooLarge(
    MAX_RESTORE_FILE_BYTES,
    `The file is too large: a backup restored here is at most ${MAX_RESTORE_FILE_BYTES / 1024 ** 3} GiB. Restore a larger one on the server (npm run admin -- restore FILE --replace)`,
  );
const passwordOf = (value: unknown) =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_PASSWORD_LENGTH ? value : undefined;

/** The password asked again (ADR 046), then the lease: a wrong password never waits for, nor blocks, a restore. */
export async function checkedLease(connection: Connection, who: Restorer, password: unknown): Promise<RestoreLease> {
  const asked = passwordOf(password);
  if (!asked) throw jsonError(400, PASSWORD_REQUIRED);
  const check = await checkOwnPassword(who.admin, asked, who.clientAddress);
  if (!check.ok) throw refusedAttempt(check);
  const lease = await takeRestoreLease(connection, getConfig().dataDir);
  if (!lease) throw jsonError(409, BUSY_MESSAGE);
  return lease;
}

/**
 * Checks the lease's file as `npm run admin -- restore` does, then restores
 * it replacing everything, and records who did it in the restored audit log.
 * A bad file is a 400 with the reason and changes nothing; so is a 409 when
 * the site's own writes never paused long enough for it. Ends the lease.
 */
export async function restoreLeased(
  connection: Connection,
  lease: RestoreLease,
  who: Restorer,
  label: string,
): Promise<RestoreResult> {
  const log = getLogger();
  try {
    const started = Date.now();
    const { manifest } = await checked(() => readBackupFile(lease.file));
    const own = restoringConnection(connection);
    const { counts, notices } = await checked(() =>
      restoreBackup(own, lease.file, { replace: true, totpKey: getTotpKey() }),
    ).finally(() => own !== connection && own.db.destroy());
    await recordAudit({ action: "backup-restored", ...who, target: label });
    log.info({ by: who.admin.email, rows: counts.rows, ms: Date.now() - started }, "backup restored");
    return { createdAt: manifest.createdAt, source: manifest.source, rows: counts.rows, notices };
  } finally {
    await lease.end();
  }
}

/**
 * PostgreSQL: a connection of its own with no query time-out, as the command
 * line's (ADR 075): a restore's statements may take longer than a request's
 * may, and a slow one is not an outage. SQLite: the process's own connection
 * (ADR 092). A second one on this thread would hold the write lock between
 * the restore's statements while the thread's other writers (the analytics
 * and not-found flushes, a request) waited in SQLite's busy handler, which
 * blocks the thread, so the restore waited behind them: 5 s each, and they
 * failed. On the one connection they wait their turn, without blocking.
 */
function restoringConnection(connection: Connection): Connection {
  return connection.kind === "sqlite" ? connection : connect(getConfig().database, { queryTimeoutMs: 0 });
}

async function checked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupError) throw jsonError(error.status, error.message);
    throw error;
  }
}

/** Writes the file part to the lease's file, counting: past the limit it stops and answers 413. */
async function writePart(stream: Readable & { truncated?: boolean }, lease: RestoreLease): Promise<void> {
  let size = 0;
  let tooBig = false;
  stream.on("limit", () => (tooBig = true));
  const counted = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > MAX_RESTORE_FILE_BYTES) tooBig = true;
      if (tooBig) throw tooLarge();
      yield chunk;
    }
  };
  await pipeline(stream, counted, fs.createWriteStream(lease.file, { flags: "wx", mode: 0o600 }));
  if (tooBig || stream.truncated) throw tooLarge();
  if (size === 0) throw jsonError(400, "The file is empty: it is not a backup");
}

/**
 * Reads the multipart upload: the field `password` first, checked before a
 * byte of the file is kept, then the field `file`, written to a lease's
 * file. Answers the lease with the file whole; throws a JSON Response: 400
 * (not multipart, no password before the file, no file, empty), 403/429
 * (the password), 409 (a restore is running), 413 (too large, counted as
 * it arrives; the rest is left unread). Nothing is left behind on a refusal.
 */
export async function receiveRestoreUpload(
  connection: Connection,
  who: Restorer,
  fileName: (name: string) => void,
): Promise<RestoreLease> {
  const { request } = who;
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body)
    throw jsonError(
      400,
      `Send the backup as multipart/form-data: the field "${RESTORE_PASSWORD_FIELD}", then "${RESTORE_FILE_FIELD}"`,
    );
  if (Number(request.headers.get("Content-Length") ?? "0") > BODY_LIMITS.restore) throw tooLarge();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { files: 1, fileSize: MAX_RESTORE_FILE_BYTES + 1, fields: 5, fieldSize: 4096, parts: 10 },
    });
  } catch {
    throw jsonError(400, "The request is not a valid multipart/form-data upload");
  }
  const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
  return new Promise<RestoreLease>((resolve, reject) => {
    let settled = false;
    let password: string | undefined;
    let part: Promise<RestoreLease> | undefined;
    let file: Readable | undefined;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      body.unpipe(parser);
      body.pause();
      // A part not read yet (a refused password, a busy restore) has no reader to hear this: unheard, it ends the process.
      file?.on("error", () => {}).destroy(new Error("the upload was refused"));
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the route answers this Response
      reject(error);
    };
    parser.on("field", (name, value) => {
      if (name === RESTORE_PASSWORD_FIELD && !part) password = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== RESTORE_FILE_FIELD || part) return stream.resume();
      file = stream;
      fileName(info.filename ?? "");
      part = (async () => {
        if (password === undefined)
          throw jsonError(400, `Send the field "${RESTORE_PASSWORD_FIELD}" before the field "${RESTORE_FILE_FIELD}"`);
        const lease = await checkedLease(connection, who, password);
        try {
          await writePart(stream, lease);
          return lease;
        } catch (error) {
          await lease.end();
          throw error;
        }
      })();
      // The lease of an upload refused meanwhile (its body cut off) is ended, never left held.
      part.then((lease) => {
        if (settled) void lease.end();
      }, fail);
    });
    parser.on("error", () => fail(jsonError(400, "The request is not a valid multipart/form-data upload")));
    parser.on("close", () => {
      if (settled) return;
      if (!part) return fail(jsonError(400, `No file: send the backup in a file field named "${RESTORE_FILE_FIELD}"`));
      part.then((lease) => {
        if (settled) return void lease.end();
        settled = true;
        resolve(lease);
      }, fail);
    });
    let received = 0;
    body.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > BODY_LIMITS.restore) fail(tooLarge());
    });
    body.on("error", () => fail(jsonError(400, "The upload was interrupted")));
    body.pipe(parser);
  });
}
