import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { adminNoStore } from "./admin-headers";
import { dropUnreadBody, limitDeclaredBodySize, refuseCrossOriginWrites, refuseUnknownMethods } from "./request-checks";
import { secretPageHeaders } from "./secret-page-headers";
import { frameableBySelf } from "./security-headers";
import { requestContext } from "~/server/platform/context.server";
import { getConfig } from "~/server/platform/config.server";
import { getConnection } from "~/server/db/index.server";
import type { Connection } from "~/server/db/db.server";
import { databaseAway, UNAVAILABLE_HEADERS, unavailableBody } from "~/server/platform/unavailable.server";
import { getLogger } from "~/server/platform/logger.server";
import { BACKUP_PATH, sendBackup } from "~/server/backup/index.server";
import { MESSAGES_CSV_PATH, sendMessagesCsv } from "~/server/messages/index.server";
import {
  COMPRESSION_THRESHOLD,
  pageCache,
  cacheKeyOf,
  isOpenEndedKey,
  keepsNotFound,
  pathOf,
} from "~/server/page-cache/index.server";
import { contentVersionReader, nextScheduledChange } from "~/server/db/content-version.server";
import { siteDate, siteNow } from "~/server/platform/clock.server";
import { notFoundCounter, readAllRedirects, redirectLookup } from "~/server/redirects/index.server";
import { analyticsWatch } from "~/server/analytics/index.server";
import { clientAddressOf } from "./client-address";
import { beforeExpress, loggedAndSecured } from "./before-express";

const reachabilityOf = (connection: Connection) =>
  connection.kind === "postgres" ? connection.reachability : undefined;

function sendUnavailable(req: Request, res: Response): void {
  const { type, body } = unavailableBody(req.path, req.get("accept"));
  res.status(503).set(UNAVAILABLE_HEADERS).type(type).send(body);
}

/** Parses TRUST_PROXY the way Express's "trust proxy" setting expects it. */
function trustProxySetting(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false" || value === "") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

interface AppOptions {
  /** Absolute path of build/client, for production static files. */
  clientDir?: string;
  /** In development Vite serves assets and HMR; CSP is left off there. */
  development?: boolean;
  /** The React Router server build, or a function that loads it. */
  build: Parameters<typeof createRequestHandler>[0]["build"];
}

export function createApp({ clientDir, development = false, build }: AppOptions) {
  const config = getConfig();
  const log = getLogger();
  const app = express();

  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(config.trustProxy));

  // The request checks (request-checks.ts). Each refuses only a request with a body or a method
  // other than GET and HEAD, which the cache never answers; a check that could
  // refuse a bodiless GET belongs in `everyAnswer` below, so hits get it too.
  app.use(dropUnreadBody);
  app.use(refuseUnknownMethods);
  app.use(refuseCrossOriginWrites(config.siteUrl));
  app.use(limitDeclaredBodySize);

  // The few files at the top of build/client (favicon, ...). Only their exact
  // paths reach express.static, so page requests cost no file lookup.
  const rootFiles = new Set(
    clientDir
      ? fs
          .readdirSync(clientDir, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => `/${entry.name}`)
      : [],
  );

  // The content version, read once per request however many steps ask: the
  // redirects and the page cache both check it before Express (ADR 054).
  const connection = getConnection();
  const readVersion = contentVersionReader(connection);
  const versions = new WeakMap<IncomingMessage, Promise<string>>();
  const versionOf = (req: IncomingMessage) => {
    let version = versions.get(req);
    if (!version) versions.set(req, (version = readVersion()));
    return version;
  };
  const redirects = redirectLookup({
    readVersion: versionOf,
    load: () => readAllRedirects(connection.db),
    logger: log,
  });

  // Public answers are rendered once per content change (ADR 024): a hit is
  // answered before Express (handle, below); a miss is kept as the app writes it.
  const cache =
    development || config.pageCacheBytes === 0
      ? undefined
      : pageCache({
          maxBytes: config.pageCacheBytes,
          readVersion: versionOf,
          // Both on site time (ADR 077): an entry ends when the next post is out by the database's clock.
          nextScheduledChange: () => nextScheduledChange(connection.db, siteDate()),
          now: siteNow,
          // A file at the top of build/client is express.static's, whatever its name.
          cacheKey: (url) => (rootFiles.has(pathOf(url)) ? undefined : cacheKeyOf(url)),
          openEnded: isOpenEndedKey,
          keepsNotFound,
          // While the database is away, what the cache holds is still served, stale (ADR 075).
          outage: () => (databaseAway(connection) ? reachabilityOf(connection)?.sinceReached() : undefined),
          staleLimitMs: config.pageCacheStaleMs,
          logger: log,
        });

  // While the database is away, a request the cache could not answer gets
  // 503 at once rather than waiting out the pool's time-outs; files need no
  // database and are still served (ADR 075).
  app.use((req, res, next) => {
    if (!databaseAway(connection) || req.path.startsWith("/assets/") || rootFiles.has(req.path)) return next();
    // A page the cache holds, however old, rather than the 503 (a render it waited for met the outage).
    if (cache) cache.answerStaleOr(req, res, () => sendUnavailable(req, res));
    else sendUnavailable(req, res);
  });

  // The backup download streams hundreds of megabytes: answered here, before
  // compression (images do not compress) and React Router (whose adapter
  // holds a streamed body's chunks until it ends), after the request checks
  // above (a POST from another site is refused, a body over the limit too).
  // ADR 034. The Settings screen posts to it from a hidden frame and reads a
  // refusal there: its answers may be framed by the site's own pages.
  app.all(BACKUP_PATH, (req, res, next) => {
    frameableBySelf(res);
    sendBackup(req, res, req.ip ?? req.socket.remoteAddress ?? "unknown").catch(next);
  });

  app.use(compression({ threshold: COMPRESSION_THRESHOLD }));

  // The inbox's CSV export is streamed a page of rows at a time, which React
  // Router's adapter would hold whole (as the backup, above); text, so it is
  // compressed. ADR 035.
  app.all(MESSAGES_CSV_PATH, (req, res, next) => {
    sendMessagesCsv(req, res).catch(next);
  });

  if (clientDir) {
    // Hashed build assets never change: cache them for a year. One this
    // build lacks is a 404, not the landing page (the catch-all's answer to
    // other paths): a script must never be answered with HTML, and behind a
    // proxy during a rolling upgrade the 404 sends the request on to a
    // process of the other release (deploy/nginx, ADR 033).
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), {
        immutable: true,
        maxAge: "1y",
        index: false,
        fallthrough: false,
      }),
    );
    const serveRootFile = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()));
  }

  if (cache) app.use(cache.fillOnMiss);

  app.all(
    "/{*splat}",
    createRequestHandler({
      build,
      mode: development ? "development" : "production",
      getLoadContext: (req, res) =>
        requestContext({
          connection,
          config,
          cspNonce: String(res.locals.cspNonce),
          staleAnswer: cache?.staleAnswer,
          clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
        }),
    }),
  );

  // A request Express itself refuses (a path whose percent-encoding does not
  // decode, say) is the client's error: a plain 4xx, logged once by the access
  // log, not a stack trace on stderr per request.
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    // A streamed answer (the backup, the CSV) that met the database's outage before its first byte.
    if (!res.headersSent && databaseAway(connection)) return sendUnavailable(req, res);
    const status = Number((error as { status?: unknown } | null)?.status);
    if (!res.headersSent && status >= 400 && status < 500) {
      res
        .status(status)
        .type("text/plain")
        .send(status === 400 ? "Bad request" : status === 404 ? "Not found" : "Request refused");
      return;
    }
    next(error);
  });

  // Express is a Node request listener: it takes the bare request and response.
  const expressApp = app as unknown as (
    req: IncomingMessage,
    res: ServerResponse,
    next?: (error?: unknown) => void,
  ) => void;
  // What every answer gets, a cache hit as much as a page Express renders, in
  // the order server/before-express.ts documents.
  const clientAddress = clientAddressOf(app.get("trust proxy fn") as (address: string, hop: number) => boolean);
  const handle = beforeExpress({
    everyAnswer: [
      ...loggedAndSecured(log, { siteUrl: config.siteUrl, development }),
      secretPageHeaders,
      adminNoStore,
      notFoundCounter.watch,
      analyticsWatch({ clientAddress, siteUrl: config.siteUrl }),
    ],
    redirect: redirects.answerRedirects,
    cacheHit: cache?.answerHits,
    log,
  });
  return (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) =>
    handle(req, res, () => expressApp(req, res, next));
}
