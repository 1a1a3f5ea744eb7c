import type { Transaction } from "kysely";
import { MAX_IMPORTED_REDIRECTS } from "~/lib/redirects";
import type { Db } from "../db/db.server";
import type { Database } from "../db/schema.server";
import { defineJob, enqueue, type JobContext } from "../jobs/index.server";
import { countRedirects } from "../redirects/index.server";
import type { PostOutcome } from "./post.server";
import { fileOf, forgetFile, type ReceivedFile } from "./store.server";
import { IMPORT_LIMITS, ImportFileError, type ReadFile, type SourcePost } from "./source.server";

/**
 * The import's work, as jobs (ADR 074, on ADR 067's queue): each run reads
 * the stored file from its start, passes over the posts an earlier run
 * finished (`processed`, counted in each post's own transaction), imports
 * posts for about STEP_MS, then queues the next run and ends. A process
 * killed mid-run leaves its job to be taken up again once its lease runs
 * out, by any process; the post it was making was either committed with
 * its count or not at all. The last run marks the import done and drops the
 * file.
 */

type Trx = Transaction<Database>;

/** Work per run: short runs keep the lease (and a restart's wait) short. */
const STEP_MS = 8_000;
const RUN_TIMEOUT_MS = 30_000;

interface Payload {
  importId: string;
}

/** The posts of the stored file, whichever kind it is, and their number once known. */
async function postsOf(
  read: ReadFile,
  row: { kind: string | null; site_url: string | null },
): Promise<{ total: number | null; posts: () => AsyncGenerator<SourcePost> }> {
  // The readers and the converter (sax, stream-json, turndown and its DOM:
  // half a megabyte) are loaded by the job, not compiled at every start.
  if (row.kind === "wordpress") return (await import("./wxr.server")).readWordPress(read);
  const { readGhost } = await import("./ghost.server");
  return { total: null, posts: () => readGhost(read, { siteUrl: row.site_url }) };
}

/** Adds a post's outcome to the import's counts and problems, in the post's transaction. */
function countsWriter(importId: string) {
  return async (trx: Trx, outcome: PostOutcome) => {
    const row = await trx
      .selectFrom("imports")
      .select(["problems", "more_problems"])
      .where("id", "=", importId)
      .executeTakeFirstOrThrow();
    const problems = JSON.parse(row.problems) as string[];
    const room = Math.max(0, IMPORT_LIMITS.problems - problems.length);
    const kept = outcome.problems.slice(0, room).map((problem) => problem.slice(0, 500));
    await trx
      .updateTable("imports")
      .set((eb) => ({
        processed: eb("processed", "+", 1),
        created: eb("created", "+", outcome.result === "created" ? 1 : 0),
        skipped: eb("skipped", "+", outcome.result === "created" ? 0 : 1),
        known: eb("known", "+", outcome.result === "known" ? 1 : 0),
        redirects: eb("redirects", "+", outcome.redirects),
        images_fetched: eb("images_fetched", "+", outcome.images.fetched),
        images_failed: eb("images_failed", "+", outcome.images.failed),
        problems: JSON.stringify([...problems, ...kept]),
        more_problems: eb("more_problems", "+", outcome.problems.length - kept.length),
        updated_at: new Date().toISOString(),
      }))
      .where("id", "=", importId)
      .execute();
  };
}

async function finish(db: Db, importId: string, error?: string): Promise<void> {
  const now = new Date().toISOString();
  await db
    .updateTable("imports")
    .set({ status: error === undefined ? "done" : "failed", error: error ?? null, finished_at: now, updated_at: now })
    .where("id", "=", importId)
    .execute();
  await forgetFile(db, importId);
}

const importRun = defineJob<Payload>(
  "import.run",
  async ({ importId }, ctx) => {
    try {
      await runStep(ctx.db, importId, ctx);
    } catch (error) {
      if (error instanceof ImportFileError) return finish(ctx.db, importId, error.message);
      if (ctx.attempt >= ctx.maxAttempts && !ctx.signal.aborted)
        await finish(ctx.db, importId, `The import stopped after an error: ${(error as Error).message}`.slice(0, 1000));
      throw error;
    }
  },
  { maxAttempts: 5, retryDelaysMs: [5_000, 30_000, 60_000], timeoutMs: RUN_TIMEOUT_MS },
);

/** One run: pass over the posts done, import for STEP_MS, then queue the next run or finish. */
async function runStep(db: Db, importId: string, ctx: Pick<JobContext, "signal">): Promise<void> {
  const row = await db.selectFrom("imports").selectAll().where("id", "=", importId).executeTakeFirst();
  if (!row || row.status !== "running") return;
  const source = await postsOf(fileOf(db, importId), row);
  let total = row.total ?? source.total;
  if (total === null) {
    total = 0;
    for await (const _post of source.posts()) total++;
  }
  if (row.total === null) await db.updateTable("imports").set({ total }).where("id", "=", importId).execute();
  const until = Date.now() + STEP_MS;
  const writeCounts = countsWriter(importId);
  const makeRedirects = (await countRedirects(db, { imported: true })) < MAX_IMPORTED_REDIRECTS;
  const { importPost } = await import("./post.server");
  let index = 0;
  for await (const post of source.posts()) {
    if (index++ < row.processed) continue;
    if (Date.now() > until || ctx.signal.aborted) {
      if (ctx.signal.aborted) return;
      await enqueue(db, importRun, { importId }, { idempotencyKey: `import.run:${importId}:${index - 1}` });
      return;
    }
    await importPost(db, importId, post, { signal: ctx.signal, writeCounts, makeRedirects });
    if (ctx.signal.aborted) return;
  }
  await summarize(db, importId, makeRedirects);
  await finish(db, importId);
}

/** The report's last lines: posts an earlier import brought, and redirects left out at the bound. */
async function summarize(db: Db, importId: string, madeRedirects: boolean): Promise<void> {
  const row = await db
    .selectFrom("imports")
    .select(["known", "problems"])
    .where("id", "=", importId)
    .executeTakeFirstOrThrow();
  const lines: string[] = [];
  if (row.known > 0)
    lines.push(`${row.known.toLocaleString("en-US")} posts were imported before and were left as they are.`);
  if (!madeRedirects)
    lines.push(
      `No redirects were made: the site keeps at most ${MAX_IMPORTED_REDIRECTS.toLocaleString("en-US")} imported addresses.`,
    );
  if (lines.length === 0) return;
  const problems = [...lines, ...(JSON.parse(row.problems) as string[])].slice(0, IMPORT_LIMITS.problems);
  await db
    .updateTable("imports")
    .set({ problems: JSON.stringify(problems) })
    .where("id", "=", importId)
    .execute();
}

/** The received file becomes a running import with its first run queued, in one transaction. */
export async function startImport(db: Db, file: ReceivedFile): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("imports")
      .set({ status: "running", kind: file.kind, site_url: file.siteUrl, updated_at: new Date().toISOString() })
      .where("id", "=", file.id)
      .execute();
    await enqueue(trx, importRun, { importId: file.id }, { idempotencyKey: `import.run:${file.id}:0` });
  });
}
