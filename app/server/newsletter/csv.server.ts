import { randomUUID } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import { isValidEmail } from "~/lib/email";
import type { Db } from "../db/db.server";
import { enqueue } from "../jobs/index.server";
import { type CsvProblem, parseCsv } from "../platform/csv.server";
import { givingWay } from "../platform/event-loop.server";
import { confirmMailJob } from "./confirm-mail.server";
import { storedEmail } from "./subscribers.server";

/**
 * Subscribers as CSV (ADR 072). The export is every subscriber, a header
 * line first, UTF-8 with a byte-order mark, formulas neutralised. The import
 * takes a file with an address a line (the first column, or the one headed
 * "email"): an address already on the list is left as it is; a new one is
 * confirmed when the owner says these people consented, else pending with a
 * confirmation e-mail, as if they had used the form. Bounded like the
 * redirects' import (1 MB, 5,000 lines); it gives way to other requests
 * as it goes.
 */

export const SUBSCRIBER_IMPORT_LIMITS = { bytes: 1_000_000, lines: 5_000 } as const;
const MAX_LINE = 2_000;
const SHOWN_PROBLEMS = 20;

export async function exportSubscribersCsv(db: Db): Promise<string> {
  const rows = await db.selectFrom("subscribers").selectAll().orderBy("created_at").orderBy("id").execute();
  return stringify(
    rows.map((row) => [
      row.email,
      row.status,
      row.consent,
      row.created_at,
      row.confirmed_at ?? "",
      row.unsubscribed_at ?? "",
    ]),
    {
      bom: true,
      header: true,
      columns: ["email", "status", "consent", "created_at", "confirmed_at", "unsubscribed_at"],
      record_delimiter: "windows",
      escape_formulas: true,
    },
  );
}

export interface SubscriberImport {
  added: number;
  confirmed: number;
  pending: number;
  skipped: number;
  problems: CsvProblem[];
}

/** The addresses of a file, with the problems of its lines; duplicates within it are skipped. */
async function addressesOf(text: string): Promise<{ emails: string[]; problems: CsvProblem[]; skipped: number }> {
  const records = await parseCsv(text, MAX_LINE);
  const problems: CsvProblem[] = [];
  if (records.length > SUBSCRIBER_IMPORT_LIMITS.lines)
    return { emails: [], skipped: 0, problems: [{ line: 1, message: "the file has more than 5,000 lines" }] };
  const first = records[0];
  const header = first && "fields" in first ? first.fields.map((f) => f.trim().toLowerCase()) : [];
  const column = Math.max(0, header.indexOf("email"));
  const seen = new Set<string>();
  let skipped = 0;
  for (const [index, record] of records.entries()) {
    if (!("fields" in record)) {
      problems.push(record);
      continue;
    }
    const value = (record.fields[column] ?? "").trim();
    if (index === 0 && header.includes("email")) continue;
    if (!isValidEmail(value)) {
      problems.push({ line: record.line, message: `"${value.slice(0, 60)}" is not an e-mail address` });
      continue;
    }
    const email = storedEmail(value);
    if (seen.has(email)) skipped++;
    else seen.add(email);
  }
  return { emails: [...seen], problems, skipped };
}

export async function importSubscribersCsv(db: Db, text: string, consented: boolean): Promise<SubscriberImport> {
  const { emails, problems, skipped } = await addressesOf(text);
  const result: SubscriberImport = {
    added: 0,
    confirmed: 0,
    pending: 0,
    skipped,
    problems: problems.slice(0, SHOWN_PROBLEMS),
  };
  const giveWay = givingWay();
  for (const email of emails) {
    await giveWay();
    const now = new Date().toISOString();
    const added = await db.transaction().execute(async (trx) => {
      const id = randomUUID();
      const inserted = await trx
        .insertInto("subscribers")
        .values({
          id,
          email,
          status: consented ? "confirmed" : "pending",
          consent: "import",
          created_at: now,
          confirmed_at: consented ? now : null,
          confirm_sent_at: consented ? null : now,
        })
        .onConflict((oc) => oc.column("email").doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      if (!consented)
        await enqueue(
          trx,
          confirmMailJob,
          { subscriberId: id, sentAt: now, imported: true },
          { idempotencyKey: `newsletter.confirm-mail:${id}:${now}` },
        );
      return true;
    });
    if (!added) result.skipped++;
    else if (consented) result.confirmed++;
    else result.pending++;
  }
  result.added = result.confirmed + result.pending;
  return result;
}
