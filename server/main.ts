import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
// Provided by React Router's Vite plugin at build time.
import * as build from "virtual:react-router/server-build";
import { ConfigError, getConfig } from "~/server/platform/config.server";
import { closeConnection, getDb, startListening } from "~/server/db/index.server";
import { watchEventLoop } from "~/server/platform/event-loop.server";
import { getLogger } from "~/server/platform/logger.server";
import { closeMarkdownWorker, enableMarkdownWorker } from "~/server/posts/index.server";
import { closeShareCardWorker, enableShareCardWorker } from "~/server/share-cards/index.server";
import { prepareApp } from "./startup";
import { startJobs } from "~/server/jobs/index.server";
import { pruneAuditLogAtStart } from "~/server/audit/index.server";
import { createApp } from "./app";

const SHUTDOWN_GRACE_MS = 10_000;
/** Running jobs get this long to finish; then they are given back, well before the process must end. */
const JOBS_GRACE_MS = SHUTDOWN_GRACE_MS - 2_000;

/**
 * V8 "pretenures" an allocation site, allocating its objects straight in the
 * old generation, once most of them survive a young collection. Slow requests
 * (writes, renders) make that true of the sites every answer shares (the
 * access log, the nonce, the headers), and V8 keeps the decision: after 10,000
 * admin writes a cache hit cost ~47 µs of CPU instead of ~31 and the process
 * ran a full mark-compact every ~150 ms. A server's per-request objects are
 * short-lived, so the site opts out (ADR 024, docs/performance.md). Set here,
 * not on the command line, so that every way of starting the server gets it.
 */
v8.setFlagsFromString("--no-allocation-site-pretenuring");

async function main() {
  let config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = getLogger();
  if (config.passwordHashCost === "test")
    log.warn(
      "PASSWORD_HASH_COST=test: passwords are hashed at the test suite's cheap cost; never use it for a real site",
    );
  enableMarkdownWorker(fileURLToPath(new URL("./markdown-worker.js", import.meta.url)));
  enableShareCardWorker(fileURLToPath(new URL("./share-card-worker.js", import.meta.url)));
  if (config.jobs.delayScale !== 1)
    log.warn(
      { delayScale: config.jobs.delayScale },
      "JOB_DELAY_SCALE is not 1: failed jobs are retried sooner than they should be; never use it for a real site",
    );
  await prepareApp();
  await pruneAuditLogAtStart(getDb(), config.auditRetentionDays);
  // The durable jobs, the schedules and the flushers (the not-found log's and
  // the analytics' counts, written every few seconds and once more at
  // shutdown: a process killed outright loses at most their last few
  // seconds; ADR 054, 056, 067).
  const jobs = startJobs({
    db: getDb,
    concurrency: config.jobs.workers,
    delayScale: config.jobs.delayScale,
    listener: startListening(),
  });

  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  const app = createApp({ build, clientDir });
  // Once draining (SIGTERM), every answer closes its connection after it, so
  // a proxy's connections end one by one, each after a whole answer.
  let draining = false;
  const server = http.createServer((req, res) => {
    if (draining) res.setHeader("Connection", "close");
    app(req, res);
  });
  // KEEP_ALIVE_SECONDS (Node's 5 s by default): a proxy in front must close its
  // idle connections sooner (deploy/nginx: 4 s), so that this server never
  // closes a connection as the proxy sends a request on it: that request would
  // be lost, and a proxy does not resend a POST to another process (ADR 033).
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  // A request may take as long as nginx lets it (deploy/: 30 minutes on the
  // restore's upload path, ADR 078), not Node's default 5 minutes: a 2 GB
  // backup on a slow uplink takes longer. Headers still come within Node's
  // 60 s, and nginx ends bodies that stop coming.
  server.requestTimeout = 31 * 60_000;
  watchEventLoop(log);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    log.info({ port, host: config.host, siteUrl: config.siteUrl, database: config.database.kind }, "server listening");
  });
  server.on("error", (error) => {
    log.fatal({ err: error }, "server failed to start");
    process.exit(1);
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    // A second signal: whoever sends it knows no proxy will send more, so idle connections end now.
    if (stopping) return void server.closeIdleConnections();
    stopping = true;
    draining = true;
    log.info({ signal }, "shutting down: finishing in-flight requests");
    // No new jobs from now on; running ones finish within the grace or are given back.
    const jobsStopped = jobs.stop(JOBS_GRACE_MS);
    const force = setTimeout(() => {
      log.warn("in-flight requests did not finish in time; closing connections");
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // Whatever still hangs after that (a database that went away mid-shutdown
    // can hold the pool's end open), the process does not outlive its grace.
    const hardStop = setTimeout(() => {
      log.error("shutdown did not finish; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 5_000);
    hardStop.unref();
    // net.Server's close, not http.Server's: that one also closes every idle
    // keep-alive connection at once, racing a proxy that is sending a request
    // on one. This one stops accepting (a proxy's new connection is refused,
    // and it tries the next process: safe, nothing was sent) and waits for the
    // open connections to end: after their next answer, when the proxy closes
    // them, or at the keep-alive timeout (ADR 033).
    net.Server.prototype.close.call(server, (error?: Error) => {
      void Promise.all([jobsStopped.then(closeConnection), closeMarkdownWorker(), closeShareCardWorker()]).then(() => {
        log.info("stopped");
        process.exit(error ? 1 : 0);
      });
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  try {
    getLogger().fatal({ err: error }, "start failed");
  } catch {
    console.error(error);
  }
  process.exit(1);
});
