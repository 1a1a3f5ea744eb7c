import { setImmediate } from "node:timers/promises";
import { CsvError, parse, type Info } from "csv-parse";

/**
 * Reading an uploaded CSV file (redirects, ADR 054; subscribers, ADR 072)
 * without holding the event loop: csv-parse is given the text a piece at a
 * time, with a turn of the loop between, and a line past the caller's
 * bound ends the reading there.
 */

/** One problem of a file, by its line number (1-based). */
export interface CsvProblem {
  line: number;
  message: string;
}

export type CsvRecord = { line: number; fields: string[] } | CsvProblem;

/** Characters of the text given to the parser at a time: 3-4 ms of its work, about 10 ms before it is compiled. */
const PARSE_PIECE = 16 * 1024;

/**
 * The records of a CSV text (RFC 4180, by csv-parse), each with its first
 * line's number. A syntax error (a quote left open, a record longer than
 * maxLine) ends the reading there: it is named by its line, after the
 * records before it. The text is given to the parser PARSE_PIECE characters
 * at a time, with a turn of the event loop between.
 */
export async function parseCsv(text: string, maxLine: number): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  /** The line of the first syntax error: the reading ends there (the parser may go on to the end of its piece). */
  let endLine = Infinity;
  const problem = (error: CsvError) => {
    const line = (error as CsvError & { lines?: number }).lines ?? 1;
    if (line >= endLine) return;
    endLine = line;
    records.push({ line, message: csvMessage(error, maxLine) });
  };
  const parser = parse({
    relax_column_count: true,
    // Files from other platforms end lines either way, sometimes both.
    record_delimiter: ["\r\n", "\n", "\r"],
    skip_empty_lines: true,
    max_record_size: maxLine,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (error) problem(error);
    },
    info: true,
  });
  parser.on("data", ({ record, info }: { record: string[]; info: Info }) => {
    // `lines` is the line the record ends on; a quoted field may span several.
    const newlines = record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
    const line = info.lines - newlines;
    if (line < endLine) records.push({ line, fields: record });
  });
  const ended = new Promise<void>((resolve, reject) => {
    parser.on("end", resolve);
    parser.on("error", reject);
  });
  // Awaited after the last piece: an error before then must not count as unhandled meanwhile.
  ended.catch(() => {});
  for (let at = 0; at < text.length && endLine === Infinity && !parser.destroyed; at += PARSE_PIECE) {
    parser.write(text.slice(at, at + PARSE_PIECE));
    await setImmediate();
  }
  if (!parser.destroyed) parser.end();
  try {
    await ended;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    problem(error);
  }
  return records.sort((a, b) => a.line - b.line);
}

function csvMessage(error: CsvError, maxLine: number): string {
  if (error.code === "CSV_QUOTE_NOT_CLOSED") return "a quoted field is not closed";
  if (error.code === "CSV_MAX_RECORD_SIZE") return `the line is too long (${maxLine} characters at most)`;
  return "the line is not valid CSV";
}
