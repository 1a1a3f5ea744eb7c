import { randomUUID } from "node:crypto";
import { sql, type Selectable, type Transaction } from "kysely";
import { localPathOf, type RedirectStatus } from "~/lib/redirects";
import { isPostgres } from "../db/dialect.server";
import type { Database, RedirectsTable } from "../db/schema.server";
import type { CsvProblem } from "../platform/csv.server";

/**
 * The one place the placing rules live (ADR 054, ADR 085): every stored
 * redirect leads where it ends in one hop, so a new one whose target is
 * itself redirected leads on, the redirects that led to its `from` now lead
 * to its target, and one that would end where it starts is refused. A save,
 * an edit and a site's own redirect place one line; a CSV import places its
 * whole file in one plan. A plan reads the stored rows its lines can reach,
 * places in memory, and writes what changed in a few statements: line by
 * line, a 5,000-line file took seven round trips a line and held
 * PostgreSQL's transaction for 20 s and more on a busy machine.
 */

type Trx = Transaction<Database>;
type Row = Selectable<RedirectsTable>;

export class RedirectError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** A checked redirect to place: a CSV line (numbered) or one save. */
export interface PlacedLine {
  line: number;
  from: string;
  to: string;
  status: RedirectStatus;
}

export interface PlaceOptions {
  /** A redirect the site keeps itself (a post or category that moved), not the owner's. */
  automatic?: boolean;
  /** A redirect already from `from` is replaced; without it, that is a 409. */
  overwrite?: boolean;
  /** The stored redirect an edit changes: it is placed afresh, keeping its id. */
  replacing?: Row;
}

/** Rows read per statement, and written per statement (9 columns: within any driver's limit). */
const PIECE = 500;

type GiveWay = () => Promise<void> | undefined;
const noWait: GiveWay = () => undefined;

/** `work` on `values` in pieces of PIECE, giving way before each. */
async function inPieces<T>(values: readonly T[], giveWay: GiveWay, work: (piece: T[]) => Promise<unknown>) {
  for (let i = 0; i < values.length; i += PIECE) {
    await giveWay();
    await work(values.slice(i, i + PIECE));
  }
}

/** The stored rows from `froms` or from the lines' own targets, and those leading to `froms`: all a line can read. */
async function reachableRows(trx: Trx, lines: Array<Pick<PlacedLine, "from" | "to">>, giveWay: GiveWay) {
  const froms = lines.map((line) => line.from);
  const targets = lines.flatMap((line) => localPathOf(line.to) ?? []);
  const rows = new Map<string, Row>();
  for (const [column, values] of [
    ["from_path", [...new Set([...froms, ...targets])]],
    ["to_path", froms],
  ] as const) {
    await inPieces(values, giveWay, async (piece) => {
      const found = await trx.selectFrom("redirects").selectAll().where(column, "in", piece).execute();
      for (const row of found) rows.set(row.from_path, row);
    });
  }
  return rows.values();
}

/** The redirects in memory, by from and by target path, and the ones changed. */
class Plan {
  private readonly byFrom = new Map<string, Row>();
  private readonly byTo = new Map<string, Set<Row>>();
  readonly changed = new Set<Row>();
  readonly redirected = new Set<string>();
  /** Edited redirects, deleted before the changed rows are written: an edit may change the from. */
  readonly replaced = new Set<string>();

  constructor(rows: Iterable<Row>) {
    for (const row of rows) this.keep(row);
  }

  private keep(row: Row) {
    this.byFrom.set(row.from_path, row);
    if (row.to_path) this.leadingTo(row.to_path).add(row);
  }

  /** The redirect from `from` as the plan has it: what the write stores. */
  rowFrom(from: string): Row | undefined {
    return this.byFrom.get(from);
  }

  private forget(stored: Row) {
    const row = this.byFrom.get(stored.from_path);
    if (row?.id !== stored.id) return;
    this.byFrom.delete(row.from_path);
    if (row.to_path) this.byTo.get(row.to_path)?.delete(row);
    this.changed.delete(row);
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

  /**
   * One redirect placed; a RedirectError before anything in the plan
   * changes, but for an edit's old row, forgotten first so that the rules
   * do not see it (an edit is placed in a plan of its own, placeOne's).
   */
  place({ from, to, status }: PlacedLine, { automatic = false, overwrite = false, replacing }: PlaceOptions) {
    if (replacing) this.forget(replacing);
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
    const existing = this.byFrom.get(from);
    if (existing && !overwrite) throw new RedirectError(409, `A redirect from ${from} already exists`);
    const now = new Date().toISOString();
    for (const row of earlier) this.lead(row, target, targetPath ?? null, now);
    this.redirected.add(from);
    const row = existing ?? this.created(from, now, replacing);
    Object.assign(row, { status, automatic: automatic ? 1 : 0 });
    this.lead(row, target, targetPath ?? null, now);
  }

  /** A new row from `from`, or the edited one moved there with its id, creation and kind. */
  private created(from: string, now: string, replacing: Row | undefined): Row {
    if (replacing) this.replaced.add(replacing.id);
    const row: Row = replacing
      ? { ...replacing, from_path: from }
      : {
          id: randomUUID(),
          from_path: from,
          to_target: "",
          to_path: null,
          status: 301,
          automatic: 0,
          imported: 0,
          created_at: now,
          updated_at: now,
        };
    this.keep(row);
    return row;
  }
}

/** The plan's edited rows deleted, its changed rows written (new ones inserted, the rest updated by from), and its froms no longer misses. */
async function write(trx: Trx, plan: Plan, giveWay: GiveWay) {
  if (plan.replaced.size > 0) {
    await trx
      .deleteFrom("redirects")
      .where("id", "in", [...plan.replaced])
      .execute();
  }
  await inPieces([...plan.changed], giveWay, (rows) =>
    trx
      .insertInto("redirects")
      .values(rows)
      .onConflict((conflict) =>
        conflict.column("from_path").doUpdateSet((eb) => ({
          to_target: eb.ref("excluded.to_target"),
          to_path: eb.ref("excluded.to_path"),
          status: eb.ref("excluded.status"),
          automatic: eb.ref("excluded.automatic"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute(),
  );
  await inPieces([...plan.redirected], giveWay, (paths) =>
    trx.deleteFrom("not_found_paths").where("path", "in", paths).execute(),
  );
}

/**
 * One redirect stored, in the caller's transaction: a save (refused when
 * one from `from` exists, unless `overwrite`), an edit (`replacing`), or a
 * redirect the site keeps (`automatic`). Answers the row as written.
 */
export async function placeOne(trx: Trx, line: Omit<PlacedLine, "line">, options: PlaceOptions = {}): Promise<Row> {
  const plan = new Plan(await reachableRows(trx, [line], noWait));
  plan.place({ line: 1, ...line }, options);
  await write(trx, plan, noWait);
  return plan.rowFrom(line.from)!;
}

/**
 * Places every line in order, overwriting, in the caller's transaction;
 * answers the problems (at most `maxProblems`), and writes nothing when
 * there is one. On PostgreSQL the table is locked against other writers
 * until the commit, so that no redirect saved meanwhile escapes the plan
 * (SQLite's writers take turns already).
 */
export async function placeAll(
  trx: Trx,
  lines: PlacedLine[],
  giveWay: GiveWay,
  maxProblems: number,
): Promise<CsvProblem[]> {
  if (isPostgres(trx)) await sql`lock table redirects in share row exclusive mode`.execute(trx);
  const plan = new Plan(await reachableRows(trx, lines, giveWay));
  const problems: CsvProblem[] = [];
  for (const placed of lines) {
    await giveWay();
    try {
      plan.place(placed, { overwrite: true });
    } catch (error) {
      if (!(error instanceof RedirectError)) throw error;
      problems.push({ line: placed.line, message: error.message });
      if (problems.length >= maxProblems) break;
    }
  }
  if (problems.length === 0) await write(trx, plan, giveWay);
  return problems;
}
