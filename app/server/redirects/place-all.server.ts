import { randomUUID } from "node:crypto";
import { sql, type Selectable, type Transaction } from "kysely";
import { localPathOf, type RedirectStatus } from "~/lib/redirects";
import { isPostgres } from "../db/dialect.server";
import type { Database, RedirectsTable } from "../db/schema.server";
import type { CsvProblem } from "../platform/csv.server";
import { RedirectError } from "./redirects.server";

/**
 * A CSV import's redirects placed as placeRedirect (redirects.server.ts)
 * places them one after another with `overwrite`: chains collapsed, the
 * redirects that led to a line's `from` led on, loops refused. Here they are
 * planned in memory, from the stored rows the file can reach, and written at
 * the end in a few statements. Line by line, each redirect took about seven
 * round trips: a 5,000-line file held PostgreSQL's transaction for 20 s and
 * more on a busy machine. csv-import.server.db.test.ts holds the two ways
 * equal on random files.
 */

type Trx = Transaction<Database>;
type Row = Selectable<RedirectsTable>;

/** A checked line of the file (csv.server.ts). */
export interface PlacedLine {
  line: number;
  from: string;
  to: string;
  status: RedirectStatus;
}

/** Rows read per statement, and written per statement (9 columns: within any driver's limit). */
const PIECE = 500;

/** The stored rows from `froms` or from the lines' own targets, and those leading to `froms`: all a line can read. */
async function reachableRows(trx: Trx, lines: PlacedLine[], giveWay: () => Promise<void> | undefined) {
  const froms = lines.map((line) => line.from);
  const targets = lines.flatMap((line) => localPathOf(line.to) ?? []);
  const rows = new Map<string, Row>();
  for (const [column, values] of [
    ["from_path", [...new Set([...froms, ...targets])]],
    ["to_path", froms],
  ] as const) {
    for (let i = 0; i < values.length; i += PIECE) {
      await giveWay();
      const found = await trx
        .selectFrom("redirects")
        .selectAll()
        .where(column, "in", values.slice(i, i + PIECE))
        .execute();
      for (const row of found) rows.set(row.from_path, row);
    }
  }
  return rows;
}

/** The redirects in memory, by from and by target path, and the ones changed. */
class Plan {
  readonly byFrom = new Map<string, Row>();
  private readonly byTo = new Map<string, Set<Row>>();
  readonly changed = new Set<Row>();
  readonly redirected = new Set<string>();

  constructor(rows: Iterable<Row>) {
    for (const row of rows) this.keep(row);
  }

  private keep(row: Row) {
    this.byFrom.set(row.from_path, row);
    if (row.to_path) this.leadingTo(row.to_path).add(row);
  }

  private leadingTo(path: string): Set<Row> {
    let rows = this.byTo.get(path);
    if (!rows) this.byTo.set(path, (rows = new Set()));
    return rows;
  }

  private lead(row: Row, target: string, targetPath: string | null, now: string) {
    if (row.to_path) this.byTo.get(row.to_path)?.delete(row);
    Object.assign(row, { to_target: target, to_path: targetPath, updated_at: now });
    if (targetPath) this.leadingTo(targetPath).add(row);
    this.changed.add(row);
  }

  /** placeRedirect's rules for one line, overwriting; a RedirectError before anything changes. */
  place({ from, to, status }: PlacedLine) {
    let target = to;
    let targetPath = localPathOf(to);
    if (targetPath === from) throw new RedirectError(400, "from and to are the same address");
    const next = targetPath === undefined ? undefined : this.byFrom.get(targetPath);
    if (next) {
      if (next.to_path === from) {
        throw new RedirectError(409, `This would make a loop: ${targetPath} already leads to ${from}`);
      }
      target = next.to_target;
      targetPath = next.to_path ?? undefined;
    }
    const earlier = [...(this.byTo.get(from) ?? [])];
    const looping = earlier.find((row) => row.from_path === targetPath);
    if (looping) throw new RedirectError(409, `This would make a loop: ${looping.from_path} already leads to ${from}`);
    const now = new Date().toISOString();
    for (const row of earlier) this.lead(row, target, targetPath ?? null, now);
    this.redirected.add(from);
    const row = this.byFrom.get(from);
    if (row) {
      Object.assign(row, { status, automatic: 0 });
      this.lead(row, target, targetPath ?? null, now);
      return;
    }
    const created = { id: randomUUID(), from_path: from, status, automatic: 0, imported: 0, created_at: now };
    this.keep({ ...created, to_target: target, to_path: targetPath ?? null, updated_at: now });
    this.changed.add(this.byFrom.get(from)!);
  }
}

/** The plan's changed rows written (new ones inserted, the rest updated by from), and its froms no longer misses. */
async function write(trx: Trx, plan: Plan, giveWay: () => Promise<void> | undefined) {
  const rows = [...plan.changed];
  for (let i = 0; i < rows.length; i += PIECE) {
    await giveWay();
    await trx
      .insertInto("redirects")
      .values(rows.slice(i, i + PIECE))
      .onConflict((conflict) =>
        conflict.column("from_path").doUpdateSet((eb) => ({
          to_target: eb.ref("excluded.to_target"),
          to_path: eb.ref("excluded.to_path"),
          status: eb.ref("excluded.status"),
          automatic: eb.ref("excluded.automatic"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
  const paths = [...plan.redirected];
  for (let i = 0; i < paths.length; i += PIECE) {
    await giveWay();
    await trx
      .deleteFrom("not_found_paths")
      .where("path", "in", paths.slice(i, i + PIECE))
      .execute();
  }
}

/**
 * Places every line in order, in the caller's transaction; answers the
 * problems (at most `maxProblems`), and writes nothing when there is one.
 * On PostgreSQL the table is locked against other writers until the commit,
 * so that no redirect saved meanwhile escapes the plan (SQLite's writers
 * take turns already).
 */
export async function placeAll(
  trx: Trx,
  lines: PlacedLine[],
  giveWay: () => Promise<void> | undefined,
  maxProblems: number,
): Promise<CsvProblem[]> {
  if (isPostgres(trx)) await sql`lock table redirects in share row exclusive mode`.execute(trx);
  const plan = new Plan((await reachableRows(trx, lines, giveWay)).values());
  const problems: CsvProblem[] = [];
  for (const placed of lines) {
    await giveWay();
    try {
      plan.place(placed);
    } catch (error) {
      if (!(error instanceof RedirectError)) throw error;
      problems.push({ line: placed.line, message: error.message });
      if (problems.length >= maxProblems) break;
    }
  }
  if (problems.length === 0) await write(trx, plan, giveWay);
  return problems;
}
