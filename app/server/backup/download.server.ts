import tar from "tar-stream";
import { BoundedWork } from "../bounded-work.server";
import { getConnection } from "../db/index.server";
import { jsonError } from "../http.server";
import { getLogger } from "../logger.server";
import { writeBackup } from "./write.server";

/** One backup download at a time per process: each holds a database snapshot and up to an image in memory. */
export const backupWork = new BoundedWork(1, 1);
export const BACKUP_BUSY_MESSAGE =
  "A backup is already being downloaded from this server: try again when it has finished";

/** site-backup-2026-11-25T0930Z.tar */
export function backupFileName(now = new Date()): string {
  return `site-backup-${now.toISOString().slice(0, 16).replace(/:/g, "")}Z.tar`;
}

/**
 * The whole site as a backup file, streamed as it is read: the tar's bytes
 * leave as the client takes them (React Router's adapter waits for the
 * socket to drain), so memory stays at about one image, not the site's size.
 * A client that goes away ends the backup and its snapshot.
 */
export function backupDownload(by: string): Response {
  const admission = backupWork.tryAdmit();
  if (!admission) return jsonError(503, BACKUP_BUSY_MESSAGE, { "Retry-After": "30" });
  const log = getLogger();
  const pack = tar.pack();
  const started = Date.now();
  void writeBackup(getConnection(), pack)
    .then((counts) => log.info({ by, counts: counts.rows, ms: Date.now() - started }, "backup downloaded"))
    .catch((error: unknown) => log.warn({ by, err: error }, "backup download ended early"))
    .finally(() => admission.release());
  const chunks = pack[Symbol.asyncIterator]() as AsyncIterator<Buffer, undefined>;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        pack.destroy(reason instanceof Error ? reason : new Error("the download was cancelled"));
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-tar",
      "Content-Disposition": `attachment; filename="${backupFileName()}"`,
      // no-transform: compression() leaves it alone (images do not compress; the tar stays a plain tar).
      "Cache-Control": "no-store, no-transform",
    },
  });
}
