import { stringify } from "csv-stringify/sync";
import { CSV_IMPORT_LIMITS, MAX_REDIRECTS, REDIRECT_LIMITS, type RedirectStatus } from "~/lib/redirects";
import { changingContent } from "../db/content-version.server";
import type { Db } from "../db/db.server";
import { placeAll, type PlacedLine, RedirectError } from "./plan.server";
import { checkInput, countingInTurn, countRedirects } from "./redirects.server";
import { type CsvProblem, parseCsv } from "../platform/csv.server";
import { givingWay } from "../platform/event-loop.server";

/**
 * Redirects as CSV (ADR 054), for a site moving from another platform:
 * `from,to,status` a line (status optional, 301 by default; a header line
 * naming the columns is skipped). An import is all or nothing: every line is
 * checked first, each bad one named by its number, and only a file without
 * a bad line is saved, in one transaction.
 *
 * None of it holds the event loop for long (a 5,000-line file held it about
 * 0.9 s, SQLite being synchronous): the text is read a piece at a time, and
 * the checking and the saving give way to other requests every 10 ms
 * (givingWay). The transaction stays one: on SQLite it is open while other requests run, and
 * their queries wait for it (the connection is the transaction's); on
 * PostgreSQL they run beside it.
 */

const CSV_COLUMNS = ["from", "to", "status"] as const;

export type ImportResult = { ok: true; imported: number } | { ok: false; problems: CsvProblem[] };

/** The problems shown at most: the rest are counted. */
const SHOWN_PROBLEMS = 20;
/** A line longer than this cannot hold a valid redirect (two fields, a status, quotes and commas). */
const MAX_LINE = REDIRECT_LIMITS.from + REDIRECT_LIMITS.to + 64;

function statusOf(value: string | undefined): RedirectStatus | undefined {
  const text = (value ?? "").trim();
  if (text === "" || text === "301") return 301;
  return text === "302" ? 302 : undefined;
}

/** Every line checked on its own: the redirects, or the problems. */
async function checkLines(text: string): Promise<{ lines: PlacedLine[]; problems: CsvProblem[] }> {
  const lines: PlacedLine[] = [];
  const problems: CsvProblem[] = [];
  const seen = new Map<string, number>();
  const records = await parseCsv(text, MAX_LINE);
  const giveWay = givingWay();
  if (records.length > CSV_IMPORT_LIMITS.lines) {
    problems.push({
      line: 1,
      message: `the file has more than ${CSV_IMPORT_LIMITS.lines.toLocaleString("en-US")} lines`,
    });
    return { lines, problems };
  }
  for (const [index, record] of records.entries()) {
    await giveWay();
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
 * Loops are found as the lines are placed, in order (plan.server.ts);
 * any problem rolls all back.
 */
export async function importRedirectsCsv(db: Db, text: string): Promise<ImportResult> {
  const { lines, problems } = await checkLines(text);
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, SHOWN_PROBLEMS) };
  if (lines.length === 0) return { ok: false, problems: [{ line: 1, message: "the file holds no redirect" }] };
  try {
    await changingContent(db, async (trx) => {
      await countingInTurn(trx);
      const found = await placeAll(trx, lines, givingWay(), SHOWN_PROBLEMS);
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
