/** The import domain's interface: what routes and server/ may use (README.md here). */
import type { Readable } from "node:stream";
import type { Db } from "../db/db.server";
import { parseQuery, limit, offset, type QueryResult } from "../platform/paging.server";
import { z } from "zod";
import { startImport } from "./run.server";
import { forgetFile, receiveFile, receiveUpload, type ReceivedFile } from "./store.server";

export { init } from "./init.server";
export { findImport, listImports } from "./report.server";

/**
 * Reads the multipart upload (field "file", optional field "siteUrl"),
 * stores it and starts the import job. Throws a Response (JSON {error}):
 * 400 (no file, not a WordPress or Ghost export, a bad siteUrl), 409 (an
 * import is running), 413 (too large). `onField` hears each text field as
 * it is read (the screen shows the old site's address again after a refusal).
 */
export async function receiveImport(
  db: Db,
  request: Request,
  { by, onField }: { by: string; onField?: (name: string, value: string) => void },
): Promise<{ id: string }> {
  return started(db, await receiveUpload(db, request, by, onField));
}

/**
 * `npm run admin -- import FILE`: the file read from disk as an upload
 * would be. Throws a Response as receiveImport does.
 */
export async function importFile(
  db: Db,
  stream: Readable,
  options: { fileName: string; by: string; siteUrl: string },
): Promise<{ id: string }> {
  return started(db, await receiveFile(db, stream, options));
}

async function started(db: Db, file: ReceivedFile): Promise<{ id: string }> {
  try {
    await startImport(db, file);
  } catch (error) {
    await forgetFile(db, file.id, { row: true });
    throw error;
  }
  return { id: file.id };
}

const listQuery = z.object({ limit, offset });

/** GET /api/admin/import's `limit` and `offset`, or why not. */
export function parseImportListQuery(url: URL): QueryResult<{ limit: number; offset: number }> {
  return parseQuery(listQuery, url);
}
