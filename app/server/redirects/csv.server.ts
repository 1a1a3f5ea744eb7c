import { stringify } from "csv-stringify/sync";
import { CSV_IMPORT_LIMITS, MAX_REDIRECTS, REDIRECT_LIMITS, type RedirectStatus } from "~/lib/redirects";
import { changingContent } from "../db/content-version.server";
import type { Db } from "../db/db.server";
import { checkInput, countRedirects, placeRedirect, RedirectError } from "./redirects.server";

/**
 * Redirects as CSV (ADR 054), for a site moving from another platform:
 * `from,to,status` a line (status optional, 301 by default; a header line
 * naming the columns is skipped). An import is all or nothing: every line is
 * checked first, each bad one named by its number, and only a file without
 * a bad line is saved, in one transaction.
 */

export const CSV_COLUMNS = ["from", "to", "status"] as const;

/** One problem of an import, by its line number in the file (1-based). */
export interface CsvProblem {
  line: number;
  message: string;
}

export type ImportResult = { ok: true; imported: number } | { ok: false; problems: CsvProblem[] };

/** The problems shown at most: the rest are counted. */
const SHOWN_PROBLEMS = 20;
/** A line longer than this cannot hold a valid redirect (two fields, a status, quotes and commas). */
const MAX_LINE = REDIRECT_LIMITS.from + REDIRECT_LIMITS.to + 64;

/**
 * The records of a CSV text (RFC 4180: fields in double quotes may hold
 * commas, quotes doubled, line breaks), each with its first line's number.
 * One pass over the characters; a record is at most MAX_LINE characters.
 */
export function parseCsv(text: string): Array<{ line: number; fields: string[] } | CsvProblem> {
  const records: Array<{ line: number; fields: string[] } | CsvProblem> = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let length = 0;
  const endRecord = () => {
    fields.push(field);
    if (length > MAX_LINE)
      records.push({ line: start, message: `the line is too long (${MAX_LINE} characters at most)` });
    else if (!(fields.length === 1 && fields[0]!.trim() === "")) records.push({ line: start, fields });
    fields = [];
    field = "";
    length = 0;
    start = line;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    length++;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        if (length <= MAX_LINE) field += char;
      }
      continue;
    }
    if (char === '"' && field === "") quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      line++;
      endRecord();
    } else if (length <= MAX_LINE) field += char;
  }
  if (quoted) records.push({ line: start, message: "a quoted field is not closed" });
  else if (field !== "" || fields.length > 0) endRecord();
  return records;
}

function statusOf(value: string | undefined): RedirectStatus | undefined {
  const text = (value ?? "").trim();
  if (text === "" || text === "301") return 301;
  return text === "302" ? 302 : undefined;
}

interface Checked {
  line: number;
  from: string;
  to: string;
  status: RedirectStatus;
}

/** Every line checked on its own: the redirects, or the problems. */
function checkLines(text: string): { lines: Checked[]; problems: CsvProblem[] } {
  const lines: Checked[] = [];
  const problems: CsvProblem[] = [];
  const seen = new Map<string, number>();
  const records = parseCsv(text);
  if (records.length > CSV_IMPORT_LIMITS.lines) {
    problems.push({
      line: 1,
      message: `the file has more than ${CSV_IMPORT_LIMITS.lines.toLocaleString("en-US")} lines`,
    });
    return { lines, problems };
  }
  for (const [index, record] of records.entries()) {
    if (!("fields" in record)) {
      problems.push(record);
      continue;
    }
    const [from = "", to = "", status, ...rest] = record.fields;
    if (index === 0 && from.trim().toLowerCase() === "from") continue;
    if (rest.some((extra) => extra.trim() !== "")) {
      problems.push({ line: record.line, message: "a line has at most three fields: from, to, status" });
      continue;
    }
    const parsedStatus = statusOf(status);
    if (parsedStatus === undefined) {
      problems.push({ line: record.line, message: "status must be 301 or 302 (or empty for 301)" });
      continue;
    }
    try {
      const checked = checkInput({ from, to, status: parsedStatus });
      const earlier = seen.get(checked.from);
      if (earlier !== undefined) {
        problems.push({ line: record.line, message: `${checked.from} is redirected on line ${earlier} already` });
        continue;
      }
      seen.set(checked.from, record.line);
      lines.push({ line: record.line, ...checked });
    } catch (error) {
      if (!(error instanceof RedirectError)) throw error;
      problems.push({ line: record.line, message: error.message });
    }
  }
  return { lines, problems };
}

class ImportRefused extends Error {
  constructor(readonly problems: CsvProblem[]) {
    super("import refused");
  }
}

/**
 * Imports a CSV text (at most CSV_IMPORT_LIMITS, checked by the caller on
 * the bytes): a redirect from an address that already has one replaces it.
 * Loops are found as the lines are saved; any problem rolls all back.
 */
export async function importRedirectsCsv(db: Db, text: string): Promise<ImportResult> {
  const { lines, problems } = checkLines(text);
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, SHOWN_PROBLEMS) };
  if (lines.length === 0) return { ok: false, problems: [{ line: 1, message: "the file holds no redirect" }] };
  try {
    await changingContent(db, async (trx) => {
      const found: CsvProblem[] = [];
      for (const { line, ...redirect } of lines) {
        try {
          await placeRedirect(trx, { ...redirect, automatic: false }, { overwrite: true });
        } catch (error) {
          if (!(error instanceof RedirectError)) throw error;
          found.push({ line, message: error.message });
          if (found.length >= SHOWN_PROBLEMS) break;
        }
      }
      if (found.length > 0) throw new ImportRefused(found);
      if ((await countRedirects(trx)) > MAX_REDIRECTS) {
        throw new ImportRefused([
          { line: 1, message: `the site would have more than ${MAX_REDIRECTS.toLocaleString("en-US")} redirects` },
        ]);
      }
    });
  } catch (error) {
    if (error instanceof ImportRefused) return { ok: false, problems: error.problems };
    throw error;
  }
  return { ok: true, imported: lines.length };
}

/** Every redirect as CSV, a header line first, in `from` order; bounded by the table's size. */
export async function exportRedirectsCsv(db: Db): Promise<string> {
  const rows = await db
    .selectFrom("redirects")
    .select(["from_path", "to_target", "status"])
    .orderBy("from_path")
    .execute();
  return stringify(
    rows.map((row) => [row.from_path, row.to_target, row.status]),
    { header: true, columns: [...CSV_COLUMNS], record_delimiter: "\r\n" },
  );
}
