import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { preferredContactOptions, serviceOptions } from "~/content/contact";
import { LEAD_STATUS_LABELS } from "~/content/leads";
import { MESSAGES_CSV_PATH } from "~/lib/admin-lists";
import { getAdmin } from "../identity/index.server";
import { messagesForExport } from "./contact.server";
import type { ContactMessage } from "./message-row.server";
import { getDb } from "../db/index.server";
import { parseMessageExportQuery } from "./list-query.server";
import { getLogger } from "../platform/logger.server";

export { MESSAGES_CSV_PATH };

/** messages-2026-11-24T1530Z.csv */
export function messagesCsvFileName(now = new Date()): string {
  return `messages-${now.toISOString().slice(0, 16).replace(/:/g, "")}Z.csv`;
}

const optionLabel = (options: ReadonlyArray<{ value: string; label: string }>, value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

/** The file's columns, in order: a header row names them. */
const COLUMNS: Array<{ header: string; value: (message: ContactMessage) => string }> = [
  { header: "Received (UTC)", value: (m) => m.createdAt },
  { header: "Name", value: (m) => m.name },
  { header: "Email", value: (m) => m.email },
  { header: "Phone", value: (m) => m.phone ?? "" },
  { header: "Preferred Contact Method", value: (m) => optionLabel(preferredContactOptions, m.preferredContact) },
  { header: "Service Interest", value: (m) => optionLabel(serviceOptions, m.service) },
  { header: "Message", value: (m) => m.message },
  { header: "Read", value: (m) => (m.read ? "yes" : "no") },
  { header: "Read at (UTC)", value: (m) => m.readAt ?? "" },
  // The lead (ADR 070), after the columns older files had, so a sheet built on them still lines up.
  { header: "Status", value: (m) => LEAD_STATUS_LABELS[m.status] },
  { header: "Follow-up", value: (m) => m.followUpAt ?? "" },
  { header: "Note", value: (m) => m.note ?? "" },
  { header: "Source page", value: (m) => m.sourcePage ?? "" },
  { header: "Source", value: (m) => m.source ?? "" },
  { header: "Campaign", value: (m) => m.campaign ?? "" },
];

/**
 * The CSV encoder: a byte-order mark, the header row, CRLF between records
 * (RFC 4180), any field with a line break quoted, and a leading apostrophe on a cell starting with =, +, -, @,
 * a tab or a carriage return (csv-stringify's escape_formulas).
 */
export function messagesCsvStringifier() {
  return stringify({
    bom: true,
    header: true,
    columns: COLUMNS.map((column) => column.header),
    escape_formulas: true,
    record_delimiter: "windows",
    // With CRLF between records, csv-stringify quotes a field holding CRLF but
    // not one holding a bare LF or CR, which spreadsheet apps would read as a
    // new row: every line break is quoted.
    quoted_match: /[\n\r]/,
  });
}

function answerJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * GET /api/admin/messages.csv?status=&q=: every message the inbox's filter
 * matches, newest first, as CSV (ADR 035). Rows are read a page at a time by
 * keyset and written as the socket takes them, so a process holds one page
 * whatever the size of the inbox. UTF-8 with a byte-order mark (spreadsheet
 * apps then read accents right); a cell starting with =, +, -, @, a tab or a
 * carriage return gets a leading apostrophe, so a spreadsheet shows it as
 * text instead of running it as a formula (csv-stringify's escape_formulas).
 *
 * Answered by the server (server/app.ts) rather than a React Router resource
 * route, whose adapter keeps every chunk of a streamed body until it ends
 * (ADR 034).
 */
export async function sendMessagesCsv(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return answerJson(res, 405, { error: "Method not allowed" }, { Allow: "GET" });
  }
  const admin = await getAdmin(
    new Request(new URL(MESSAGES_CSV_PATH, "http://localhost"), {
      headers: { Cookie: req.headers.cookie ?? "" },
    }),
  );
  if (!admin) return answerJson(res, 401, { error: "Authentication required" });
  const query = parseMessageExportQuery(new URL(req.url ?? "/", "http://localhost"));
  if (!query.ok) return answerJson(res, 400, { error: query.message });

  res.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${messagesCsvFileName()}"`,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (req.method === "HEAD") return void res.end();
  const log = getLogger();
  const started = Date.now();
  let rows = 0;
  const records = Readable.from(
    (async function* () {
      for await (const message of messagesForExport(getDb(), query.value)) {
        rows += 1;
        yield COLUMNS.map((column) => column.value(message));
      }
    })(),
  );
  const csv = messagesCsvStringifier();
  try {
    await pipeline(records, csv, res);
    log.info({ by: admin.email, rows, ms: Date.now() - started }, "messages exported");
  } catch (error) {
    // Headers are sent: the client sees a cut-off file.
    log.warn({ by: admin.email, rows, err: error }, "messages export ended early");
    res.destroy();
  }
}
