import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { ImportReport } from "~/lib/import";
import { migrateToLatest } from "~/server/db/db.server";
import { getConnection, startListening } from "~/server/db/index.server";
import { startCommandClock } from "~/server/platform/clock.server";
import { findImport, importFile } from "~/server/import/index.server";
import { startJobs } from "~/server/jobs/index.server";
import { enableMarkdownWorker } from "~/server/posts/index.server";
import { initDomains } from "./startup";

/**
 * `npm run admin -- import FILE [--site-url URL]` (ADR 074): the import the
 * Import screen starts, from a file on the server's disk. The work is the
 * same job: this process takes part in it (import runs only) and prints the
 * progress, while a running site may take runs too; either way each post is
 * made once. Interrupted (Ctrl-C), the import carries on in the site.
 */

const line = (report: ImportReport) =>
  `${report.processed.toLocaleString("en-US")} of ${report.total === null ? "?" : report.total.toLocaleString("en-US")} posts: ` +
  `${report.created} created, ${report.skipped} skipped, ${report.redirects} redirects, ` +
  `${report.images.fetched} images fetched, ${report.images.failed} failed`;

export async function importCommand(file: string, siteUrl: string): Promise<number> {
  const connection = getConnection();
  await migrateToLatest(connection.db);
  // Old posts' state (published or scheduled) is judged by site time (ADR 077).
  await startCommandClock(connection.db);
  initDomains(connection);
  enableMarkdownWorker(fileURLToPath(new URL("./markdown-worker.js", import.meta.url)));
  let id: string;
  try {
    ({ id } = await importFile(connection.db, fs.createReadStream(file), {
      fileName: path.basename(file),
      by: "npm run admin -- import",
      siteUrl,
    }));
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    console.error(((await error.json()) as { error: string }).error);
    return 1;
  }
  const jobs = startJobs({
    db: () => connection.db,
    concurrency: 1,
    listener: startListening(),
    only: ["import.run"],
  });
  try {
    let shown = "";
    for (;;) {
      const report = (await findImport(connection.db, id))!;
      const now = line(report);
      if (now !== shown) console.log((shown = now));
      if (report.status !== "running") {
        for (const problem of report.problems) console.log(`- ${problem}`);
        if (report.moreProblems > 0) console.log(`- and ${report.moreProblems} more`);
        if (report.error) console.error(report.error);
        return report.status === "done" ? 0 : 1;
      }
      await sleep(1000);
    }
  } finally {
    await jobs.stop(10_000);
  }
}
