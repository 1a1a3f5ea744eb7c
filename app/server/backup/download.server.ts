import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { getAdmin } from "../identity/index.server";
import { BoundedWork } from "../platform/bounded-work.server";
import { getConnection } from "../db/index.server";
import { getLogger } from "../platform/logger.server";
import { getTotpKey } from "../identity/index.server";
import { writeBackup } from "./write.server";

/** Where Settings' "Download backup" points. */
export const BACKUP_PATH = "/api/admin/backup";

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

/**
 * GET /api/admin/backup: the whole site as one file (ADR 034), streamed into
 * the socket as it is read. The tar goes to the response through a stream
 * pipeline, each entry waiting for the socket to take the one before, so a
 * process holds about one image whatever the size of the site. A client
 * that goes away ends the backup and its snapshot.
 *
 * Answered by the server (server/app.ts), not a React Router resource route:
 * React Router 7.18's adapter keeps every chunk of a streamed body until the
 * answer ends (writeReadableStreamToWritable races each read against one
 * promise that never settles), so a 550 MB backup held 550 MB.
 */
export async function sendBackup(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return answerJson(res, 405, { error: "Method not allowed" }, { Allow: "GET" });
  }
  const admin = await getAdmin(
    new Request(new URL(BACKUP_PATH, "http://localhost"), {
      headers: { Cookie: req.headers.cookie ?? "" },
    }),
  );
  if (!admin) return answerJson(res, 401, { error: "Authentication required" });
  const admission = backupWork.tryAdmit();
  if (!admission) return answerJson(res, 503, { error: BACKUP_BUSY_MESSAGE }, { "Retry-After": "30" });
  const log = getLogger();
  try {
    res.writeHead(200, {
      "Content-Type": "application/x-tar",
      "Content-Disposition": `attachment; filename="${backupFileName()}"`,
      "Cache-Control": "no-store",
    });
    if (req.method === "HEAD") return void res.end();
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
