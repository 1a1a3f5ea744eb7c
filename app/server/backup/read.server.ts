import { createHash } from "node:crypto";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { Readable } from "node:stream";
import { sql } from "kysely";
import tar from "tar-stream";
import { ACCEPTED_IMAGE_TYPES } from "~/lib/images";
import { isLeadStatus, parseFollowUp } from "~/lib/leads";
import { checkFromPath, checkTarget, isWordPressIdPath, localPathOf } from "~/lib/redirects";
import { isContentName, parseContent } from "~/lib/site-content";
import { httpsUrl } from "~/lib/site-settings";
import type { Connection, Db } from "../db/db.server";
import { isRecordId } from "../db/ids.server";
import { sniffImageFormat, rebuildImageReferences, rebuildPageImageReferences } from "../images/index.server";
import { isAnalyticsRow } from "../analytics/index.server";
import { auditRowAsKept } from "../audit/index.server";
import {
  fillCategorySlugs,
  MarkdownRenderError,
  queueRestoredPublications,
  renameReservedSlugs,
  renderPostBody,
} from "../posts/index.server";
import { type TotpKey, isPlainSecret, openSecret, opensWith, sealSecret } from "../identity/index.server";
import { webhookSecretOpens } from "../webhooks/index.server";
import { isBookingRow, queueRestoredReminders } from "../booking/index.server";
import { isMailingRow, isSubscriberRow } from "../newsletter/index.server";
import { bumpContentVersion } from "../db/content-version.server";
import {
  BACKED_UP_TABLES,
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  CHECKSUMS,
  COUNTS,
  ENTRY_LIMITS,
  IMAGE_ID,
  IMAGE_JSON_NAME,
  imageFileName,
  isRenamedRowTable,
  JSONL_NAME,
  MANIFEST,
  RENAMED_ROW_TABLES,
  ROOT,
  ROW_TABLES,
  variantFileName,
  type Counts,
  type ImageJson,
  type Manifest,
  type RowTable,
} from "./format.server";
import { siteNow } from "../platform/clock.server";

type Row = Record<string, string | number | null>;

/** What a restore does with each part of a backup, in the order the file holds them. */
interface BackupVisitor {
  manifest?(manifest: Manifest): Promise<void> | void;
  image?(image: Row, bytes: Buffer): Promise<void>;
  variant?(variant: Row, bytes: Buffer): Promise<void>;
  rows?(table: RowTable, rows: Row[]): Promise<void>;
}

interface BackupSummary {
  manifest: Manifest;
  counts: Counts;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A name fit to repeat in an error (a foreign file's names may be anything). */
const shown = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}...` : name);

/**
 * Reads a backup file, checking it as it goes: its first entry must be this
 * format's manifest at a version this site reads; every entry must be one the
 * format names, in its place, within its size limit; each row must have only
 * the manifest's columns; and at the end the counts and every entry's
 * SHA-256 must match. Throws a BackupError saying what is wrong. With no
 * visitor it only checks the file.
 */
export async function readBackupFile(file: string, visit: BackupVisitor = {}): Promise<BackupSummary> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new BackupError(`No backup file at ${file}`);
  }
  if (!stat.isFile()) throw new BackupError(`${file} is not a file`);
  if (stat.size === 0) throw new BackupError(`${file} is empty: it is not a backup`);
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, 2, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) {
    throw new BackupError(`${file} is compressed (gzip): decompress it first (gunzip), then restore the .tar`);
  }
  return readBackup(fs.createReadStream(file), visit);
}

async function readBackup(input: Readable, visit: BackupVisitor = {}): Promise<BackupSummary> {
  const extract = tar.extract();
  input.on("error", (error) => extract.destroy(error));
  input.pipe(extract);

  const hashes = new Map<string, string>();
  const rows: Record<string, number> = Object.fromEntries(BACKED_UP_TABLES.map((table) => [table, 0]));
  let manifest: Manifest | undefined;
  let counts: Counts | undefined;
  let checksumsSeen = false;
  /** Files the last image's entry announced, still to come, in order. */
  let expected: Array<{ file: string; variant?: Row; image?: Row }> = [];
  /** The last table and piece of rows read, so they come in order. */
  let lastTable = -1;
  let lastPiece = 0;

  try {
    for await (const entry of extract) {
      const { name, size = 0, type } = entry.header;
      if (checksumsSeen) throw new BackupError(`The backup goes on after its checksums (${shown(name)})`);
      if (type !== "file") throw new BackupError(`The backup holds ${shown(name)}, which is not a file`);
      if (hashes.has(name)) throw new BackupError(`The backup holds ${shown(name)} twice`);
      const read = async (limit: number) => {
        if (size > limit) throw new BackupError(`${shown(name)} is larger than a backup's entry may be`);
        const chunks: Buffer[] = [];
        const hash = createHash("sha256");
        for await (const chunk of entry as AsyncIterable<Buffer>) {
          hash.update(chunk);
          chunks.push(chunk);
        }
        hashes.set(name, hash.digest("hex"));
        return Buffer.concat(chunks);
      };

      if (!manifest) {
        if (name !== MANIFEST) {
          throw new BackupError(
            `This is not a backup of this site: its first entry is ${shown(name)}, not ${MANIFEST}`,
          );
        }
        manifest = parseManifest(await read(ENTRY_LIMITS.manifest));
        await visit.manifest?.(manifest);
        continue;
      }

      const next = expected.shift();
      if (next) {
        if (name !== next.file) throw new BackupError(`The backup has ${shown(name)} where ${next.file} should be`);
        const bytes = await read(ENTRY_LIMITS.imageFile);
        checkImageFile(next.image ?? next.variant!, bytes, name);
        if (next.image) {
          rows.images! += 1;
          await visit.image?.(next.image, bytes);
        } else {
          rows.image_variants! += 1;
          await visit.variant?.(next.variant!, bytes);
        }
        continue;
      }

      const imageJson = IMAGE_JSON_NAME.exec(name);
      if (imageJson) {
        if (lastTable >= 0) throw new BackupError(`The backup has the image ${shown(name)} after its rows`);
        const json = parseImageJson(await read(ENTRY_LIMITS.imageJson), imageJson[1]!, manifest, name);
        expected = [
          { file: json.file, image: json.image as Row },
          ...json.variants.map((variant) => ({ file: variant.file, variant: variant.row as Row })),
        ];
        continue;
      }

      const jsonl = JSONL_NAME.exec(name);
      if (jsonl) {
        // An older version's name of a table (ADR 064) stands in its new table's place.
        const fileTable = jsonl[1]!;
        const renamed = isRenamedRowTable(fileTable) ? RENAMED_ROW_TABLES[fileTable] : undefined;
        const table = ROW_TABLES.indexOf((renamed?.table ?? fileTable) as RowTable);
        const piece = Number(jsonl[2]);
        if (table < 0)
          throw new BackupError(`The backup has rows of ${shown(fileTable)}, which is not a table it keeps`);
        const inOrder = table === lastTable ? piece === lastPiece + 1 : table > lastTable && piece === 1;
        if (!inOrder) throw new BackupError(`The backup's ${shown(name)} is out of order`);
        lastTable = table;
        lastPiece = piece;
        const tableName = ROW_TABLES[table]!;
        const parsed = parseRows(await read(ENTRY_LIMITS.jsonl), manifest.tables[fileTable], name);
        checkRows(fileTable, parsed, name);
        rows[fileTable] = (rows[fileTable] ?? 0) + parsed.length;
        await visit.rows?.(tableName, renamed ? parsed.map((row) => renamed.row(row)) : parsed);
        continue;
      }

      if (name === COUNTS) {
        if (counts) throw new BackupError(`The backup holds ${COUNTS} twice`);
        counts = parseCounts(await read(ENTRY_LIMITS.counts));
        continue;
      }

      if (name === CHECKSUMS) {
        const text = (await read(ENTRY_LIMITS.checksums)).toString("utf8");
        hashes.delete(CHECKSUMS);
        checkSums(text, hashes);
        checksumsSeen = true;
        continue;
      }
      throw new BackupError(`The backup holds ${shown(name)}, which this format does not have`);
    }
  } catch (error) {
    extract.destroy();
    input.destroy();
    if (error instanceof BackupError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/unexpected end of data/i.test(message))
      throw new BackupError("The backup file ends too early: it is truncated (an interrupted download or copy?)");
    if (/invalid (?:tar )?header|header exceeds/i.test(message))
      throw new BackupError(`This is not a backup of this site: it is not a tar file (${message})`);
    throw new BackupError(`The backup file cannot be read: ${message}`);
  }

  if (!manifest) throw new BackupError("This is not a backup of this site: it holds no entries");
  if (expected.length > 0) throw new BackupError(`The backup file is truncated: ${expected[0]!.file} is missing`);
  if (!checksumsSeen || !counts) {
    throw new BackupError(`The backup file is truncated: it ends before its ${checksumsSeen ? "counts" : "checksums"}`);
  }
  for (const table of [...BACKED_UP_TABLES, ...Object.keys(RENAMED_ROW_TABLES)]) {
    if ((counts.rows[table] ?? 0) !== (rows[table] ?? 0)) {
      throw new BackupError(
        `The backup holds ${rows[table] ?? 0} rows of ${table} where its counts say ${counts.rows[table] ?? 0}`,
      );
    }
  }
  // Every entry but SHA256SUMS (counts.json counts itself).
  if (counts.entries !== hashes.size) {
    throw new BackupError(`The backup holds ${hashes.size} entries where its counts say ${counts.entries}`);
  }
  return { manifest, counts };
}

function parseJson(bytes: Buffer, name: string): unknown {
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    throw new BackupError(`The backup's ${shown(name)} is not valid JSON`);
  }
}

function parseManifest(bytes: Buffer): Manifest {
  const value = parseJson(bytes, MANIFEST);
  if (!isObject(value) || value.format !== BACKUP_FORMAT) {
    throw new BackupError(`This is not a backup of this site: ${MANIFEST} does not name the format ${BACKUP_FORMAT}`);
  }
  if (typeof value.version !== "number" || !Number.isInteger(value.version) || value.version < 1) {
    throw new BackupError(`The backup's format version is not a whole number`);
  }
  if (value.version > BACKUP_VERSION) {
    throw new BackupError(
      `The backup was made by a newer version of the site (format ${value.version}; this version reads format ${BACKUP_VERSION}): update the site first`,
    );
  }
  const tables = value.tables;
  if (
    !isObject(tables) ||
    !Object.entries(tables).every(
      ([table, columns]) =>
        (BACKED_UP_TABLES.includes(table as never) || isRenamedRowTable(table)) &&
        Array.isArray(columns) &&
        columns.every((column) => typeof column === "string"),
    )
  ) {
    throw new BackupError(`The backup's ${MANIFEST} does not list its tables and columns as this format does`);
  }
  return value as unknown as Manifest;
}

function checkRow(value: unknown, columns: readonly string[] | undefined, where: string): Row {
  if (!isObject(value)) throw new BackupError(`${where} is not a row (a JSON object)`);
  for (const [column, cell] of Object.entries(value)) {
    if (!columns?.includes(column))
      throw new BackupError(`${where} has the column ${shown(column)}, which the backup's manifest does not list`);
    if (cell !== null && typeof cell !== "string" && typeof cell !== "number")
      throw new BackupError(`${where} has a value of ${shown(column)} that is not text, a number or null`);
  }
  return value as Row;
}

function parseRows(bytes: Buffer, columns: readonly string[] | undefined, name: string): Row[] {
  const text = bytes.toString("utf8");
  const rows: Row[] = [];
  let line = 0;
  for (let start = 0; start < text.length;) {
    const end = text.indexOf("\n", start);
    const stop = end < 0 ? text.length : end;
    line += 1;
    if (stop > start) {
      let value: unknown;
      try {
        value = JSON.parse(text.slice(start, stop)) as unknown;
      } catch {
        throw new BackupError(`Line ${line} of the backup's ${shown(name)} is not valid JSON`);
      }
      rows.push(checkRow(value, columns, `Line ${line} of the backup's ${shown(name)}`));
    }
    start = stop + 1;
  }
  return rows;
}

function parseImageJson(bytes: Buffer, id: string, manifest: Manifest, name: string): ImageJson {
  const value = parseJson(bytes, name);
  const where = `The backup's ${shown(name)}`;
  if (!isObject(value) || !Array.isArray(value.variants)) throw new BackupError(`${where} is not an image's entry`);
  const image = checkRow(value.image, manifest.tables.images, where);
  if (image.id !== id || !IMAGE_ID.test(id)) throw new BackupError(`${where} describes another image`);
  if (value.file !== imageFileName(id, String(image.content_type)))
    throw new BackupError(`${where} names its file wrongly`);
  const variants = value.variants.map((variant: unknown) => {
    if (!isObject(variant)) throw new BackupError(`${where} has a variant that is not an object`);
    const row = checkRow(variant.row, manifest.tables.image_variants, where);
    if (row.image_id !== id || variant.file !== variantFileName(id, Number(row.width), String(row.format)))
      throw new BackupError(`${where} has a variant of another image, or names its file wrongly`);
    return { row, file: variant.file };
  });
  return { image, file: value.file, variants };
}

const IMAGE_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif"]);

/**
 * A restore trusts no image's stated type (ADR 047): its content type must
 * be one uploads accept and its bytes must be an image of that type, judged
 * by their magic numbers as uploads are; a variant's format must be its
 * bytes' too. Otherwise a crafted backup could have /images serve HTML.
 */
function checkImageFile(row: Row, bytes: Buffer, name: string): void {
  const type = String(row.content_type);
  const sniffed = sniffImageFormat(bytes);
  const typeOk = (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(type) && sniffed && type === `image/${sniffed}`;
  const formatOk = "format" in row ? row.format === sniffed : IMAGE_FORMATS.has(String(row.source_format));
  if (!typeOk || !formatOk) {
    throw new BackupError(
      `The backup's ${shown(name)} is not an image of the type its row states (${shown(type)}): a backup's images must be JPEG, PNG, WebP, GIF or AVIF files of their stated type, so this backup was altered and is refused`,
    );
  }
}

/** The rows of a table a restore checks one by one, since it trusts nothing it did not write (ADR 047). */
function checkRows(table: string, rows: Row[], name: string): void {
  for (const row of rows) {
    if (table === "site_settings") checkSettingsRow(row, name);
    if (table === "redirects") checkRedirectRow(row, name);
    if (table === "analytics_days" || table === "analytics_counts") checkAnalyticsRow(table, row, name);
    if (table === "site_content" || table === "site_content_revisions") checkContentRow(row, name);
    if (table === "document_revisions") checkRevisionRow(row, name);
    if (table === "contact_messages") checkMessageRow(row, name);
    if (table === "message_replies") checkReplyRow(row, name);
    if ((table === "booking_settings" || table === "bookings") && !isBookingRow(table, row)) {
      throw new BackupError(
        `The backup's ${shown(name)} has ${table === "bookings" ? "a booking" : "booking hours"} the site would never keep: this backup was altered and is refused`,
      );
    }
    if (table === "subscribers" && !isSubscriberRow(row)) {
      throw new BackupError(
        `The backup's ${shown(name)} has a subscriber the site would never keep: this backup was altered and is refused`,
      );
    }
    if (table === "newsletter_mailings" && !isMailingRow(row)) {
      throw new BackupError(
        `The backup's ${shown(name)} has a mailing the site would never keep: this backup was altered and is refused`,
      );
    }
  }
}

/**
 * A message's lead as the site keeps it (ADR 070): one of the statuses, a
 * follow-up that is a real day, a source page that is a path (never a
 * `javascript:` address, should a screen link to it). A backup from before
 * them has none of these columns: the target's defaults (`new`, null) apply.
 */
function checkMessageRow(row: Row, name: string): void {
  const { status, follow_up_at: followUp, source_page: page, call_status: call } = row;
  const statusOk =
    (status === undefined || isLeadStatus(status)) &&
    (call === undefined || call === null || call === "booked" || call === "cancelled");
  const followUpOk = followUp === undefined || followUp === null || parseFollowUp(followUp) === followUp;
  const pageOk = page === undefined || page === null || isPagePath(page);
  if (!statusOk || !followUpOk || !pageOk) {
    throw new BackupError(
      `The backup's ${shown(name)} has a message the site would never keep (its status, follow-up day or page): this backup was altered and is refused`,
    );
  }
}

/** A reply as the site keeps it (ADR 070): pending, sent or failed. */
function checkReplyRow(row: Row, name: string): void {
  if (!REPLY_STATUSES.has(String(row.status))) {
    throw new BackupError(
      `The backup's ${shown(name)} has a reply the site would never keep (its status): this backup was altered and is refused`,
    );
  }
}

const REPLY_STATUSES = new Set(["pending", "sent", "failed"]);

/** A path as the analytics write a page (a Referer's, on this site): "/" first, at most 300 characters, printable. */
function isPagePath(value: unknown): boolean {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 300) return false;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) < 0x20 || value.charCodeAt(i) === 0x7f) return false;
  return true;
}

/** The footer's links: https addresses only, as the settings screen saves them (a `javascript:` link would run). */
function checkSettingsRow(row: Row, name: string): void {
  for (const column of ["facebook_url", "instagram_url", "linkedin_url"]) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    if (typeof value !== "string" || httpsUrl(value) === undefined) {
      throw new BackupError(
        `The backup's ${shown(name)} has a ${column} that is not an https address, which the settings never save: this backup was altered and is refused`,
      );
    }
  }
}

/**
 * A redirect as the site saves it (ADR 054): a path on this site from, a
 * path or https target (never javascript: or data:), 301 or 302. A restore
 * trusts nothing it did not write (ADR 047).
 */
function checkRedirectRow(row: Row, name: string): void {
  const { from_path: from, to_target: to, to_path: toPath, status, automatic, imported = 0 } = row;
  const checkedFrom = typeof from === "string" ? checkFromPath(from) : undefined;
  const fromOk =
    (checkedFrom?.ok === true && checkedFrom.value === from) ||
    (imported === 1 && typeof from === "string" && isWordPressIdPath(from));
  const target = typeof to === "string" ? checkTarget(to) : undefined;
  const toOk = target?.ok === true && target.value === to && (toPath ?? undefined) === localPathOf(to);
  if (
    !fromOk ||
    !toOk ||
    (status !== 301 && status !== 302) ||
    (automatic !== 0 && automatic !== 1) ||
    (imported !== 0 && imported !== 1)
  ) {
    throw new BackupError(
      `The backup's ${shown(name)} has a redirect the site would never save: this backup was altered and is refused`,
    );
  }
}

/** A day's analytics as the site writes them (ADR 056). */
function checkAnalyticsRow(table: "analytics_days" | "analytics_counts", row: Row, name: string): void {
  if (!isAnalyticsRow(table, row)) {
    throw new BackupError(
      `The backup's ${shown(name)} has analytics the site would never write: this backup was altered and is refused`,
    );
  }
}

/** JSON text parsed; undefined for anything else. */
function parsedJson(text: unknown): unknown {
  try {
    return typeof text === "string" ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `document` is the JSON of a document of page `page` that its schema passes (ADR 053). */
const checkedDocument = (page: string, document: unknown) =>
  isContentName(page) && parseContent(page, parsedJson(document)).ok;

/** A page's document as the site saves it: a page it knows, a document its schema passes (ADR 053). */
function checkContentRow(row: Row, name: string): void {
  const page = String(row.name);
  if (!checkedDocument(page, row.document)) {
    throw new BackupError(
      `The backup's ${shown(name)} has a page's content (${shown(page)}) that the site would never save: this backup was altered and is refused`,
    );
  }
}

/**
 * A revision as the site keeps it (ADR 064): a page's document its schema
 * passes, or a post's state with its texts; a post's revision must belong
 * to a post of the backup (restoreBackup checks that once the rows are in).
 */
function checkRevisionRow(row: Row, name: string): void {
  const { document_kind: kind, document_id: id, state } = row;
  let ok = false;
  if (kind === "page") {
    ok = checkedDocument(String(id), state);
  } else if (kind === "post" && typeof id === "string" && isRecordId(id)) {
    const value = parsedJson(state);
    ok =
      isObject(value) &&
      ["title", "excerpt", "content"].every((field) => typeof value[field] === "string") &&
      isObject(value.fields);
  }
  if (!ok) {
    throw new BackupError(
      `The backup's ${shown(name)} has a revision the site would never keep: this backup was altered and is refused`,
    );
  }
}

function parseCounts(bytes: Buffer): Counts {
  const value = parseJson(bytes, COUNTS);
  if (
    !isObject(value) ||
    typeof value.entries !== "number" ||
    !isObject(value.rows) ||
    !Object.values(value.rows).every((n) => typeof n === "number")
  ) {
    throw new BackupError(`The backup's ${COUNTS} is not as this format has it`);
  }
  return value as unknown as Counts;
}

const CHECKSUM_LINE = /^([\da-f]{64}) {2}(\S.*)$/;

/** SHA256SUMS must list every other entry, each with the hash of the bytes read. */
function checkSums(text: string, hashes: Map<string, string>): void {
  const listed = new Set<string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const match = line.length <= 1024 ? CHECKSUM_LINE.exec(line) : null;
    if (!match) throw new BackupError(`The backup's ${CHECKSUMS} has a line that is not a checksum`);
    const name = `${ROOT}/${match[2]}`;
    const actual = hashes.get(name);
    if (actual === undefined) throw new BackupError(`The backup lacks ${shown(name)}, which its checksums list`);
    if (actual !== match[1]) {
      throw new BackupError(`The backup's ${shown(name)} is damaged: its SHA-256 is not the one its checksums list`);
    }
    listed.add(name);
  }
  for (const name of hashes.keys()) {
    if (!listed.has(name)) throw new BackupError(`The backup holds ${shown(name)}, which its checksums do not list`);
  }
}

/**
 * Tables whose rows make a site: a target with any of them is not empty. The
 * subscribers among them: people who asked for the newsletter are not lost
 * to a restore without --replace, even on a site with nothing else yet.
 */
const SITE_TABLES = ["admin_users", "posts", "images", "contact_messages", "subscribers"] as const;
/** Emptied before a restore with `replace`, each before the tables it references. */
const REPLACED_TABLES = [
  "bookings",
  "newsletter_recipients",
  "newsletter_mailings",
  "subscribers",
  "webhook_deliveries",
  "webhooks",
  "analytics_days",
  "analytics_counts",
  "analytics_salts",
  "analytics_visitor_hashes",
  "analytics_addresses",
  "analytics_held_keys",
  "redirects",
  "not_found_paths",
  "share_links",
  "document_drafts",
  "document_revisions",
  "site_content",
  "page_image_references",
  "image_references",
  "audit_log",
  "admin_invites",
  "message_replies",
  "saved_replies",
  "contact_messages",
  "posts",
  "image_variants",
  "images",
  "sessions",
  "admin_users",
  "setup_tokens",
  "site_settings",
] as const;

/** Rows per INSERT: well inside both backends' limits on bound values. */
const INSERT_ROWS = 100;

interface RestoreOptions {
  /** Empty a target that holds a site first (signing everybody out); without it such a target is refused. */
  replace?: boolean;
  /** The target site's two-factor key (getTotpKey()); undefined: it has none (PostgreSQL without the variable). */
  totpKey: TotpKey | undefined;
}

interface RestoreSummary extends BackupSummary {
  /** What the restore changed from the file, one line each, for the operator (2FA turned off, posts rendered again). */
  notices: string[];
}

/**
 * Loads a backup into `connection` (migrated to this version) in one
 * transaction: a failure anywhere, a damaged entry found at the end included,
 * leaves the target as it was. Refuses a target that already holds a site
 * unless `replace`, which empties it first (signing everybody out). The
 * backup's settings replace the target's first-start defaults either way.
 * Bumps the content version, so every process's cached pages are stale.
 *
 * Trusts no stored HTML (ADR 047): every post's HTML is rendered again from
 * its markdown by the pipeline saves use. Images are checked as they are read
 * (checkImageFile). Two-factor secrets are kept when the target's key opens
 * them; otherwise that administrator's 2FA is turned off, with a notice.
 * The audit log keeps clients' networks, not addresses, and no e-mail a
 * stranger tried (auditRowAsKept), however old the backup.
 */
export async function restoreBackup(
  connection: Connection,
  file: string,
  { replace = false, totpKey }: RestoreOptions,
): Promise<RestoreSummary> {
  const targetColumns = new Map(
    (await connection.db.introspection.getTables()).map((table) => [
      table.name,
      new Set(table.columns.map((column) => column.name)),
    ]),
  );
  const notices: string[] = [];
  let postsRendered = 0;
  try {
    const summary = await connection.db.transaction().execute(async (trx) => {
      if (connection.kind === "postgres") await lockAgainstWriters(trx);
      if (!replace) {
        for (const table of SITE_TABLES) {
          const row = await trx
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as("n"))
            .executeTakeFirstOrThrow();
          if (Number(row.n) > 0) {
            throw new BackupError(
              `The target database already has data in ${table}: restore into a new, empty database, or add --replace to replace everything in it`,
            );
          }
        }
      }
      for (const table of REPLACED_TABLES) await trx.deleteFrom(table).execute();

      const read = await readBackupFile(file, {
        manifest(manifest) {
          for (const [table, columns] of Object.entries(manifest.tables)) {
            // An older version's table is restored as rows of today's, whatever its columns were.
            if (isRenamedRowTable(table)) continue;
            const known = targetColumns.get(table);
            const unknown = columns.find((column) => !known?.has(column));
            if (unknown !== undefined) {
              throw new BackupError(
                `The backup has the column ${table}.${unknown}, which this version of the site does not know: it was made by a newer version; update the site first`,
              );
            }
          }
        },
        async image(image, bytes) {
          await trx
            .insertInto("images")
            .values({ ...image, bytes } as never)
            .execute();
        },
        async variant(variant, bytes) {
          await trx
            .insertInto("image_variants")
            .values({ ...variant, bytes } as never)
            .execute();
        },
        async rows(table, rows) {
          let loaded = rows;
          if (table === "posts") {
            loaded = await withHtmlRendered(trx, rows);
            postsRendered += loaded.filter((row, i) => row.content_html !== rows[i]!.content_html).length;
          }
          if (table === "admin_users") loaded = rows.map((row) => withTwoFactorChecked(row, totpKey, notices));
          if (table === "webhooks") loaded = usableWebhooks(rows, totpKey, notices);
          if (table === "message_replies") loaded = repliesAsRestored(rows, notices);
          if (table === "newsletter_mailings") {
            await refuseOrphanMailings(trx, rows);
            loaded = mailingsAsRestored(rows, notices);
          }
          // One row, made by its migration: the backup's takes its place (an older backup leaves the target's).
          if (table === "booking_settings") await trx.deleteFrom("booking_settings").execute();
          if (table === "audit_log") {
            // A backup from before migration 025 holds full addresses and strangers' e-mails: not brought back.
            const admins = await trx.selectFrom("admin_users").select("email").execute();
            const adminEmails = admins.map((admin) => admin.email);
            loaded = rows.map((row) => auditRowAsKept(row, adminEmails));
          }
          for (let i = 0; i < loaded.length; i += INSERT_ROWS) {
            await trx
              .insertInto(table)
              .values(loaded.slice(i, i + INSERT_ROWS))
              .execute();
          }
        },
      });
      await refuseOrphanRevisions(trx);
      // Not in the file: rebuilt from the posts, pages and images just loaded (ADR 036, 053).
      await rebuildImageReferences(trx);
      await rebuildPageImageReferences(trx);
      // A backup from before migration 016 has no category slugs (ADR 041).
      await fillCategorySlugs(trx);
      // A post called "search" from before migration 017 (ADR 042).
      await renameReservedSlugs(trx);
      // Jobs are not in a backup: the calls still to come get their reminders queued again (ADR 071).
      await queueRestoredReminders(trx);
      // ...and the posts scheduled for later get their publication job (post.published, a mailing).
      await queueRestoredPublications(trx, siteNow());
      await bumpContentVersion(trx);
      return read;
    });
    if (postsRendered > 0) {
      notices.push(
        `${postsRendered} post${postsRendered === 1 ? "'s" : "s'"} stored HTML differed from what the markdown renders to now, and was replaced by the new rendering.`,
      );
    }
    return { ...summary, notices };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new BackupError(`The restore failed and changed nothing: ${message}`);
  }
}

/** How long a restore on PostgreSQL tries to lock the site's tables while writers hold them. */
const LOCK_TRIES_MS = 10_000;
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * On PostgreSQL the site's other writers (requests, jobs, other processes)
 * wait until the restore commits, as SQLite's one write lock makes them:
 * otherwise a row written between two of its deletes stays beside the
 * backup's (a revision without its post). Plain reads go on, seeing the
 * site as it was. Every table the restore writes is locked, but for `jobs`,
 * where it only adds rows of its own: the replaced tables, booking_settings
 * and the content version (a save that bumped it or saved the booking
 * settings, then waited on a table the restore holds, would deadlock with
 * the restore's own writes there). All or none at a time (NOWAIT, retried
 * after rolling back to a savepoint, which lets go of those it got), since
 * a restore holding some while waiting for the rest deadlocks with a writer
 * doing the opposite (ADR 092).
 */
async function lockAgainstWriters(db: Db): Promise<void> {
  const tables = sql.join([...REPLACED_TABLES, "booking_settings", "content_version"].map((table) => sql.table(table)));
  const until = Date.now() + LOCK_TRIES_MS;
  await sql`savepoint restore_lock`.execute(db);
  for (;;) {
    try {
      await sql`lock table ${tables} in exclusive mode nowait`.execute(db);
      await sql`release savepoint restore_lock`.execute(db);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw error;
      // The savepoint stays, without the locks taken since it: the next try starts from it.
      await sql`rollback to savepoint restore_lock`.execute(db);
      if (Date.now() > until) {
        throw new BackupError(
          `The site kept writing for ${LOCK_TRIES_MS / 1000} s without a pause: the restore changed nothing; try it again`,
          { status: 409 },
        );
      }
      await sleep(20);
    }
  }
}

/**
 * A reply still waiting when the backup was made has no job here (jobs are
 * not backed up): it comes back failed, saying so, and the owner sends it
 * again (ADR 070).
 */
function repliesAsRestored(rows: Row[], notices: string[]): Row[] {
  const waiting = rows.filter((row) => row.status === "pending").length;
  if (waiting === 0) return rows;
  notices.push(
    `${waiting} ${waiting === 1 ? "reply was" : "replies were"} still waiting to be sent when the backup was made; restored as failed: write them again on their messages.`,
  );
  return rows.map((row) =>
    row.status === "pending"
      ? { ...row, status: "failed", last_error: "Not sent before the backup this site was restored from was made." }
      : row,
  );
}

/**
 * A mailing still being sent when the backup was made has no job here and no
 * recipients (neither is in a backup): it comes back done as it stood, saying
 * so, and those it had not reached yet do not get it. Going on could e-mail a
 * subscriber the post twice: the site went on sending after the backup's
 * moment, to whom the file cannot say (ADR 072).
 */
function mailingsAsRestored(rows: Row[], notices: string[]): Row[] {
  const sending = rows.filter((row) => row.status === "sending").length;
  if (sending === 0) return rows;
  const now = new Date().toISOString();
  notices.push(
    `${sending} ${sending === 1 ? "mailing was" : "mailings were"} still being sent when the backup was made; restored as finished: the subscribers ${sending === 1 ? "it" : "they"} had not reached yet will not get ${sending === 1 ? "it" : "them"}.`,
  );
  return rows.map((row) => (row.status === "sending" ? { ...row, status: "done", finished_at: now } : row));
}

/** A mailing of a post the backup does not hold: the file was altered (said before the insert fails on its key). */
async function refuseOrphanMailings(db: Db, rows: Row[]): Promise<void> {
  const postIds = [...new Set(rows.map((row) => String(row.post_id)))];
  const held = new Set<string>();
  for (let i = 0; i < postIds.length; i += INSERT_ROWS) {
    const found = await db
      .selectFrom("posts")
      .select("id")
      .where("id", "in", postIds.slice(i, i + INSERT_ROWS))
      .execute();
    for (const post of found) held.add(post.id);
  }
  const orphan = postIds.find((id) => !held.has(id));
  if (orphan !== undefined) {
    throw new BackupError(
      `The backup has a mailing of a post it does not hold (${shown(orphan)}): this backup was altered and is refused`,
    );
  }
}

/** A post's revision whose post the backup does not hold: the file was altered (ADR 047, 064). */
async function refuseOrphanRevisions(db: Db): Promise<void> {
  const orphan = await db
    .selectFrom("document_revisions")
    .select("document_id")
    .where("document_kind", "=", "post")
    .where("document_id", "not in", db.selectFrom("posts").select("id"))
    .executeTakeFirst();
  if (orphan) {
    throw new BackupError(
      `The backup has revisions of a post it does not hold (${shown(orphan.document_id)}): this backup was altered and is refused`,
    );
  }
}

/**
 * The webhooks whose secret the target's key opens (ADR 068); each other one
 * is left out with a notice: without its secret it could sign nothing, and
 * the receiver needs the new secret a webhook added again gets.
 */
function usableWebhooks(rows: Row[], key: TotpKey | undefined, notices: string[]): Row[] {
  return rows.filter((row) => {
    if (typeof row.secret === "string" && webhookSecretOpens(row.secret, key?.key)) return true;
    notices.push(
      `The webhook to ${shown(String(row.url))} was left out: its secret was sealed with another key than this site's (${
        key ? key.source : "this site has none: set TOTP_ENCRYPTION_KEY"
      }). Add it again under Webhooks and give the receiver its new secret, or restore again with TOTP_ENCRYPTION_KEY set to the key of the site the backup came from.`,
    );
    return false;
  });
}

/** Each post's HTML rendered again from its markdown, one at a time, in the renderer process saves use (ADR 039). */
async function withHtmlRendered(db: Db, rows: Row[]): Promise<Row[]> {
  const rendered: Row[] = [];
  for (const row of rows) {
    if (typeof row.content !== "string") {
      throw new BackupError(`The backup's post ${shown(String(row.slug))} has no markdown text`);
    }
    try {
      rendered.push({ ...row, content_html: await renderPostBody(db, row.content) });
    } catch (error) {
      if (!(error instanceof MarkdownRenderError)) throw error;
      throw new BackupError(`The backup's post ${shown(String(row.slug))} cannot be rendered: ${error.message}`);
    }
  }
  return rendered;
}

/**
 * An administrator's row with its two-factor secrets as the target can use
 * them: an encrypted secret the target's key opens is kept as it is; one it
 * does not (another site's key) turns that administrator's 2FA off, with a
 * notice, rather than leaving them unable to sign in; a secret an older
 * version stored as it was is encrypted with the target's key. A pending
 * setup that cannot be kept is dropped.
 */
function withTwoFactorChecked(row: Row, key: TotpKey | undefined, notices: string[]): Row {
  const usable = (stored: string | number | null | undefined): string | null => {
    if (stored === null || stored === undefined) return null;
    if (typeof stored !== "string") throw new BackupError("The backup has a two-factor secret that is not text");
    if (isPlainSecret(stored)) return key ? sealSecret(openSecret(stored, key.key), key.key) : null;
    return opensWith(stored, key?.key) ? stored : null;
  };
  const checked: Row = { ...row };
  if ("totp_pending_secret" in row) checked.totp_pending_secret = usable(row.totp_pending_secret);
  if (row.totp_secret === null || row.totp_secret === undefined) return checked;
  const secret = usable(row.totp_secret);
  if (secret !== null) return { ...checked, totp_secret: secret };
  notices.push(
    `Two-factor sign-in of ${String(row.email)} was turned off: ${
      key
        ? `its secret was encrypted with another key than this site's (${key.source})`
        : "this site has no key to keep its secret with (set TOTP_ENCRYPTION_KEY)"
    }. They sign in with their password and turn it on again under Account, or restore again with TOTP_ENCRYPTION_KEY set to the key of the site the backup came from.`,
  );
  return { ...checked, totp_secret: null, totp_enabled_at: null, totp_last_step: null, recovery_codes: null };
}
