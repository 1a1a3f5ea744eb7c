/**
 * A worker process for the queue's tests across processes
 * (tests/integration/jobs-processes.db.test.ts), started with tsx: the real
 * jobs domain on DATABASE_URL, with two kinds of its own. `test.count` prints
 * `ran <n>` for each run; `test.hang` prints `started <n>` and never ends by
 * itself (its time-out is 1 s), so that the test can kill the process
 * mid-job. SIGTERM stops it gracefully. Its own logs go to stderr.
 */
import { connect } from "~/server/db/db.server";
import { createListener } from "~/server/db/listener.server";
import { defineJob, startJobs } from "~/server/jobs/index.server";

const url = process.env.DATABASE_URL!;
const connection = connect(url.startsWith("postgres") ? { kind: "postgres", url } : { kind: "sqlite", file: url });

defineJob<{ n: number }>("test.count", ({ n }) => {
  process.stdout.write(`ran ${n}\n`);
  return Promise.resolve();
});
defineJob<{ n: number }>(
  "test.hang",
  async ({ n }, { signal }) => {
    process.stdout.write(`started ${n}\n`);
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
  },
  { timeoutMs: 1000, maxAttempts: 3, retryDelaysMs: [100] },
);

const jobs = startJobs({
  db: () => connection.db,
  concurrency: Number(process.env.JOB_WORKERS ?? 4),
  listener: url.startsWith("postgres") ? createListener(url) : undefined,
});
process.stdout.write("ready\n");
process.on("SIGTERM", () => {
  void jobs.stop(2000).then(async () => {
    await connection.db.destroy();
    process.exit(0);
  });
});
