/**
 * An import's report as the API answers it and the Import screen shows it
 * (ADR 074): shared by the server and the screen. `status` is `running`
 * until the last post is done, then `done`; `failed` when the file could
 * not be read at all (`error` says why) or the work stopped for good.
 */

export type ImportStatus = "running" | "done" | "failed";

export interface ImportReport {
  id: string;
  status: ImportStatus;
  /** What the file was: a WordPress export (WXR) or a Ghost export (JSON); null until it was recognised. */
  kind: "wordpress" | "ghost" | null;
  fileName: string;
  /** Posts found in the file, once the first pass has read it; null before. */
  total: number | null;
  /** Posts looked at so far (created, skipped or failed). */
  processed: number;
  created: number;
  skipped: number;
  /** Old addresses that now redirect to the new ones. */
  redirects: number;
  images: { fetched: number; failed: number };
  /** Why posts were skipped, images left, shortcodes kept as text: at most 100, then only `moreProblems` counts. */
  problems: string[];
  moreProblems: number;
  /** Why the import failed, when it did. */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** The largest file the site takes, in bytes (the server checks it as the file arrives). */
export const MAX_IMPORT_FILE_BYTES = 80 * 1024 * 1024;
/** The upload's file field, as the API and the screen's form name it. */
export const IMPORT_FILE_FIELD = "file";
/** The optional field with the old site's address (a Ghost export does not say where its images are). */
export const IMPORT_SITE_URL_FIELD = "siteUrl";
