import http, { type RequestListener } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
// Provided by React Router's Vite plugin at build time.
import * as build from "virtual:react-router/server-build";
import { ConfigError, getConfig } from "~/server/platform/config.server";
import { closeConnection, getDb, startListening, whenDatabaseAnswers } from "~/server/db/index.server";
import { watchEventLoop } from "~/server/platform/event-loop.server";
import { getLogger } from "~/server/platform/logger.server";
import { UNAVAILABLE_HEADERS, unavailableBody } from "~/server/platform/unavailable.server";
import { closeMarkdownWorker, enableMarkdownWorker } from "~/server/posts/index.server";
import { closeShareCardWorker, enableShareCardWorker } from "~/server/share-cards/index.server";
import { prepareApp } from "./startup";
import { startJobs } from "~/server/jobs/index.server";
import { pruneAuditLogAtStart } from "~/server/audit/index.server";
import { createApp } from "./app";
import { InheritedSocketError, takeInheritedSocket } from "./inherited-socket";
import { drainOnSignal, type Drain } from "./drain";
import { loggedAndSecured, runSteps } from "./before-express";

const SHUTDOWN_GRACE_MS = 10_000;
/** deploy/systemd/ojai-site@.socket's Backlog=: connections wait there while a process restarts. */
const SOCKET_BACKLOG = 4096;
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

type Config = ReturnType<typeof getConfig>;
type Logger = ReturnType<typeof getLogger>;

function configOrExit(): Config {
  try {
    return getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

function warnOfTestSettings(config: Config, log: Logger) {
  if (config.passwordHashCost === "test")
    log.warn(
      "PASSWORD_HASH_COST=test: passwords are hashed at the test suite's cheap cost; never use it for a real site",
    );
  if (config.jobs.delayScale !== 1)
    log.warn(
      { delayScale: config.jobs.delayScale },
      "JOB_DELAY_SCALE is not 1: failed jobs are retried sooner than they should be; never use it for a real site",
    );
}

/** systemd's socket when it passes one (then PORT and HOST are its ListenStream='s, not the environment's). */
function inheritedSocketOrExit(log: Logger): number | undefined {
  try {
    return takeInheritedSocket();
  } catch (error) {
    if (!(error instanceof InheritedSocketError)) throw error;
    log.fatal(error.message);
    process.exit(1);
  }
}

/**
 * Every request's answer while the process waits for its database to start
 * (ADR 094): 503 with Retry-After, as while the database is away later on
 * (ADR 075), but without a page cache to answer from yet. It is logged and
 * carries the security headers, as every answer does (steps 1-3 of
 * server/before-express.ts).
 */
function answerUnavailable(config: Config, log: Logger): RequestListener {
  const steps = loggedAndSecured(log, { siteUrl: config.siteUrl, development: false });
  return (req, res) =>
    runSteps(
      steps,
      req,
      res,
      () => {
        const { type, body } = unavailableBody(new URL(req.url ?? "/", "http://site").pathname, req.headers.accept);
        res.writeHead(503, { ...UNAVAILABLE_HEADERS, "Content-Type": type });
        res.end(body);
      },
      log,
    );
}

interface SiteServer {
  server: http.Server;
  drain: Drain;
  /** Starts listening, once; resolves when it does. */
  listen(): Promise<void>;
  /** Answers requests with `handle` from now on. */
  serve(handle: RequestListener): void;
  /** The address it listens on. */
  address(): { port: number; host: string };
}

/** The HTTP server, on `fd` (systemd's socket) or a socket of its own; it answers 503 until `serve`. */
function createSiteServer(config: Config, fd: number | undefined, log: Logger): SiteServer {
  let handle = answerUnavailable(config, log);
  const server = http.createServer((req, res) => {
    if (drain.draining()) res.setHeader("Connection", "close");
    handle(req, res);
  });
  const drain = drainOnSignal(server, fd !== undefined, config.keepAliveTimeoutMs);
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
  server.on("error", (error) => {
    log.fatal({ err: error }, "server failed to start");
    process.exit(1);
  });
  let listening: Promise<void> | undefined;
  return {
    server,
    drain,
    listen: () =>
      (listening ??= new Promise<void>((resolve) => {
        if (fd === undefined) server.listen(config.port, config.host, resolve);
        // listen() again on systemd's socket sets its queue's length: the socket unit's Backlog=, not Node's 511.
        else server.listen({ fd }, SOCKET_BACKLOG, resolve);
      })),
    serve: (next) => void (handle = next),
    address() {
      const address = server.address();
      return typeof address === "object" && address
        ? { port: address.port, host: address.address }
        : { port: config.port, host: config.host };
    },
  };
}

async function main() {
  const config = configOrExit();
  const log = getLogger();
  warnOfTestSettings(config, log);
  enableMarkdownWorker(fileURLToPath(new URL("./markdown-worker.js", import.meta.url)));
  enableShareCardWorker(fileURLToPath(new URL("./share-card-worker.js", import.meta.url)));
  const fd = inheritedSocketOrExit(log);
  const site = createSiteServer(config, fd, log);

  // PostgreSQL away at the start: answer 503 meanwhile, and start once it is back.
  await whenDatabaseAnswers(() => {
    void site
      .listen()
      .then(() => log.warn(site.address(), "the database does not answer: answering 503 until it does, then starting"));
  });
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
  site.serve(createApp({ build, clientDir }));
  // Before the line that says it listens: whoever reads it may send SIGTERM at once.
  shutdownOnSignal(site, jobs, log);
  watchEventLoop(log);
  await site.listen();
  log.info(
    { ...site.address(), inherited: fd !== undefined, siteUrl: config.siteUrl, database: config.database.kind },
    "server listening",
  );
}

function shutdownOnSignal({ server, drain }: SiteServer, jobs: ReturnType<typeof startJobs>, log: Logger) {
  const shutdown = (signal: string) => {
    if (drain.draining()) return drain.begin(() => {});
    log.info({ signal }, "shutting down: finishing in-flight requests");
    // No new jobs from now on; running ones finish within the grace or are given back.
    const jobsStopped = jobs.stop(JOBS_GRACE_MS);
    const force = setTimeout(() => {
      log.warn("in-flight requests did not finish in time; closing connections");
      drain.begin(() => {});
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
    drain.begin((error) => {
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
