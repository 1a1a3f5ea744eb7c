/**
 * The backup file (ADR 034, docs/backup-format.md): an uncompressed POSIX tar
 * that `tar`, `sha256sum`, `jq` and an image viewer can open. Everything is
 * under one folder, in this order:
 *
 *   ojai-backup/manifest.json        what this is: format, version, tables and their columns
 *   ojai-backup/images/{id}.json     one image's row and its variants' rows (no bytes), then
 *   ojai-backup/images/{id}.{ext}    its stored bytes, and
 *   ojai-backup/images/{id}-{w}.webp each variant's bytes
 *   ojai-backup/data/{table}-{n}.jsonl  the other tables, one JSON object per row, in pieces of about 1 MiB
 *   ojai-backup/counts.json          rows per table and image files, to check a restore against
 *   ojai-backup/SHA256SUMS           `sha256sum -c` lines for every entry above
 *
 * Rows carry the database's own column names and values (dates as ISO
 * strings, booleans as 0/1), so a row restores the same on either backend.
 */

export const BACKUP_FORMAT = "ojai-site-backup";
export const BACKUP_VERSION = 1;
export const ROOT = "ojai-backup";

export const MANIFEST = `${ROOT}/manifest.json`;
export const COUNTS = `${ROOT}/counts.json`;
export const CHECKSUMS = `${ROOT}/SHA256SUMS`;

/**
 * Tables kept as rows, in the order they are written and restored (a
 * referenced table before those that reference it). Images and their variants
 * are written apart, as files, before these.
 */
export const ROW_TABLES = [
  "admin_users",
  "site_settings",
  "posts",
  // Messages with their lead's status, note and follow-up day (ADR 070), each checked on restore; then the
  // owner's replies to them, and the replies the owner keeps to reuse. A backup from before them has none.
  "contact_messages",
  "message_replies",
  "saved_replies",
  // The owner's hours for calls and the calls booked (ADR 071), each checked on restore; a backup from
  // before them has none, and the target keeps its own hours.
  "booking_settings",
  "bookings",
  // The newsletter's subscribers and its mailings (ADR 072), each checked on restore. The mailings (after
  // the posts they e-mailed) are the record that keeps a restored site from e-mailing a post twice; who
  // each went to is left out (below). A backup from before them has none.
  "subscribers",
  "newsletter_mailings",
  "audit_log",
  // Old addresses and where they lead (ADR 054), checked row by row on restore.
  "redirects",
  // The pages' published content (ADR 053); a backup from before them has none.
  "site_content",
  // Every document's revisions, posts' and pages' (ADR 064); before, the pages' alone, as site_content_revisions.
  "document_revisions",
  // The analytics' daily numbers (ADR 056), checked row by row on restore.
  "analytics_days",
  "analytics_counts",
  // Webhooks with their secrets sealed (ADR 068): kept on restore only where the target's key opens them.
  "webhooks",
] as const;
export type RowTable = (typeof ROW_TABLES)[number];
const IMAGE_TABLES = ["images", "image_variants"] as const;
type BackedUpTable = RowTable | (typeof IMAGE_TABLES)[number];
export const BACKED_UP_TABLES: readonly BackedUpTable[] = [...IMAGE_TABLES, ...ROW_TABLES];

/**
 * Tables a backup leaves out: sessions (a restore signs everybody
 * out), short-lived state (invitations among it: a link valid for a day is
 * not worth restoring, ADR 038; share links of drafts, ADR 044), and the content version (a restore bumps
 * the target's). SQLite's title index is rebuilt by its triggers.
 */
export const LEFT_OUT_TABLES = [
  "sessions",
  "setup_tokens",
  "admin_invites",
  "rate_limits",
  "content_version",
  // Documents' drafts and share links (ADR 043, 053, 064): work in progress and links that live a week.
  "document_drafts",
  "share_links",
  // The not-found log (ADR 054): counts a restored site gathers anew.
  "not_found_paths",
  // The analytics' salt, today's visitor hashes and per-address tallies (ADR 056): never kept past their day, so never in a file.
  "analytics_salts",
  "analytics_visitor_hashes",
  "analytics_addresses",
  "analytics_held_keys",
  // The throttles' hashing secret (PostgreSQL without TOTP_ENCRYPTION_KEY): the counters it keys are left out too.
  "throttle_secrets",
  // The webhooks' delivery log (ADR 068): days of attempts, gathered anew.
  "webhook_deliveries",
  // The jobs and schedules (ADR 067): work of the running site, not content. Restored, a notice or an
  // event would be sent again for messages and posts the owner has already had, to webhooks among others.
  "jobs",
  "job_schedules",
  // Each subscriber's send of a mailing (ADR 072): a log, pruned, like the webhooks' (a row per subscriber
  // per mailing). The mailing's row keeps its numbers; a send still waiting would have no job to send it.
  "newsletter_recipients",
  // Share cards (ADR 073): pictures made from the content, drawn again the first time a page names one.
  "share_cards",
  // Imports (ADR 074): reports and a running import's file are the work of the moment; which source posts
  // were imported and which image URLs fetched only spare work. A restored site importing the same file again
  // finds each post by its address and title instead.
  "imports",
  "import_chunks",
  "import_items",
  "import_images",
  // Off-site backups' last attempt (ADR 076): the running site's own uploads, not content.
  "backup_status",
] as const;

/**
 * Tables a backup of an older version holds under another name (ADR 064):
 * each row is read as that version wrote it, checked as it was, and restored
 * as a row of today's table, which takes its place in the order.
 */
export const RENAMED_ROW_TABLES = {
  // A page's published versions (migration 020) are the page's revisions now (migration 027).
  site_content_revisions: {
    table: "document_revisions",
    row: (row: Record<string, string | number | null>) => ({
      id: row.id ?? null,
      document_kind: "page",
      document_id: row.name ?? null,
      number: row.version ?? null,
      label: "",
      state: row.document ?? null,
      saved_by_id: null,
      saved_by: row.published_by ?? null,
      saved_at: row.published_at ?? null,
    }),
  },
} as const satisfies Record<string, { table: RowTable; row: (row: Record<string, string | number | null>) => unknown }>;
export type RenamedRowTable = keyof typeof RENAMED_ROW_TABLES;
export const isRenamedRowTable = (name: string): name is RenamedRowTable => Object.hasOwn(RENAMED_ROW_TABLES, name);

/**
 * Tables a backup leaves out because a restore rebuilds them from the rows it
 * holds: which images each post and page uses (ADR 036, 053), read from their text.
 */
export const REBUILT_TABLES = ["image_references", "page_image_references"] as const;

/** A piece of JSON lines is closed once it reaches this size. */
export const JSONL_PIECE_BYTES = 1024 * 1024;

/** The largest entry of each kind a restore reads (checked on the tar header, before reading it). */
export const ENTRY_LIMITS = {
  manifest: 64 * 1024,
  imageJson: 64 * 1024,
  // A piece closes past 1 MiB, so it is 1 MiB plus one row; a post is at most a few MB of JSON.
  jsonl: 16 * 1024 * 1024,
  // Stored images are re-encoded copies of uploads of at most 10 MiB (ADR 013, ADR 032).
  imageFile: 64 * 1024 * 1024,
  counts: 64 * 1024,
  checksums: 64 * 1024 * 1024,
} as const;

/** An image's id: the SHA-256 (hex) of the uploaded bytes. */
export const IMAGE_ID = /^[\da-f]{64}$/;
/** File name extensions by an image row's content type. */
const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/avif": "avif",
};

export const imageJsonName = (id: string) => `${ROOT}/images/${id}.json`;
export const imageFileName = (id: string, contentType: string) =>
  `${ROOT}/images/${id}.${IMAGE_EXTENSIONS[contentType] ?? "bin"}`;
export const variantFileName = (id: string, width: number, format: string) => `${ROOT}/images/${id}-${width}.${format}`;
export const jsonlName = (table: RowTable, piece: number) =>
  `${ROOT}/data/${table}-${String(piece).padStart(6, "0")}.jsonl`;
/** data/{table}-{n}.jsonl, table and piece number. */
export const JSONL_NAME = /^ojai-backup\/data\/([a-z_]{1,40})-(\d{6})\.jsonl$/;
export const IMAGE_JSON_NAME = /^ojai-backup\/images\/([\da-f]{64})\.json$/;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The database it was made from: "sqlite" or "postgres". */
  source: string;
  /** Each backed-up table's columns, as they were written. */
  tables: Record<string, string[]>;
  /** Where the format is described. */
  description: string;
}

/** An image's entry: its row and its variants' rows, each without bytes, with the file holding them. */
export interface ImageJson {
  image: Record<string, unknown>;
  file: string;
  variants: Array<{ row: Record<string, unknown>; file: string }>;
}

export interface Counts {
  rows: Record<string, number>;
  /** Entries before SHA256SUMS, counts.json included. */
  entries: number;
}

/**
 * A backup refused, with why, in the owner's words. `status` is the HTTP
 * answer the admin's restore gives it: 400 for the file (the default), 409
 * when the site itself stood in the way and the same file may go through
 * on a second try.
 */
export class BackupError extends Error {
  override name = "BackupError";
  readonly status: 400 | 409;

  constructor(message: string, { status = 400 }: { status?: 400 | 409 } = {}) {
    super(message);
    this.status = status;
  }
}
