import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import onHeaders from "on-headers";
import { pinoHttp } from "pino-http";
import { securityHeadersFrom } from "./security-headers";
import { SKIP_INTRO_SCRIPT } from "~/components/site/intro-script";
import "~/context";
import { sessionCookieName } from "~/server/auth.server";
import { getConfig } from "~/server/config.server";
import { getConnection, getDb } from "~/server/db/index.server";
import { BODY_LIMITS } from "~/server/http.server";
import { getLogger } from "~/server/logger.server";
import { COMPRESSION_THRESHOLD, pageCache } from "~/server/page-cache/cache.server";
import { cacheKeyOf, isOpenEndedKey, pathOf } from "~/server/page-cache/key.server";
import { contentVersionReader, nextScheduledChange } from "~/server/page-cache/version.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The methods the site answers; anything else (TRACE, CONNECT, made-up ones) is a 405 before any route runs. */
const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The Fetch API behind React Router refuses TRACE and CONNECT outright (it would be a 500). */
function refuseUnknownMethods(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_METHODS.includes(req.method)) return next();
  res.set("Allow", KNOWN_METHODS.join(", "));
  res.status(405).json({ error: "Method not allowed" });
}

/** Parses TRUST_PROXY the way Express's "trust proxy" setting expects it. */
function trustProxySetting(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false" || value === "") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * CSRF defence (PRODUCT §3, §9): a state-changing request from another origin
 * is refused. Browsers send Origin on cross-origin writes, and Sec-Fetch-Site
 * where Origin is missing; tools such as curl send neither and are allowed.
 */
function refuseCrossOriginWrites(siteOrigin: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    const crossOrigin = origin
      ? origin !== siteOrigin && origin !== ownOrigin
      : req.get("sec-fetch-site") === "cross-site";
    if (crossOrigin) {
      res.status(403).json({ error: "Cross-origin request refused" });
      return;
    }
    next();
  };
}

/** A CSP source allowing one inline script by its content: 'sha256-<base64>'. */
function scriptHashSource(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/**
 * Inline scripts of public pages, allowed by hash (ADR 024): those pages carry
 * no nonce, so the HTML cached for them is the same for every visitor.
 */
const PUBLIC_INLINE_SCRIPTS = [SKIP_INTRO_SCRIPT].map(scriptHashSource);

/**
 * A CSP nonce: 16 random bytes, base64, each answer its own. The bytes come
 * from the system's random source 4 KiB at a time (one call for 256 nonces,
 * as Node does for randomUUID) and are never used twice.
 */
const NONCE_BYTES = 16;
let nonceBytes = Buffer.alloc(0);
let nonceOffset = 0;
function cspNonce(): string {
  if (nonceOffset + NONCE_BYTES > nonceBytes.length) {
    nonceBytes = randomBytes(256 * NONCE_BYTES);
    nonceOffset = 0;
  }
  nonceOffset += NONCE_BYTES;
  return nonceBytes.toString("base64", nonceOffset - NONCE_BYTES, nonceOffset);
}

/**
 * Refuses a declared body over the limit before anything reads it (the rest
 * is dropped, then the connection closed: dropUnreadBody); bodies without a
 * length are capped where they are read.
 */
function limitDeclaredBodySize(req: Request, res: Response, next: NextFunction) {
  const limit = req.path === "/api/admin/upload" ? BODY_LIMITS.upload : BODY_LIMITS.json;
  const declared = Number(req.get("content-length") ?? 0);
  if (declared > limit) {
    res.set("Connection", "close");
    res.status(413).json({ error: `Request body is too large (${limit} bytes at most)` });
    return;
  }
  next();
}

/** How long the rest of a refused body is read and dropped before the connection is cut. */
const UNREAD_BODY_LINGER_MS = 2_000;
/**
 * A declared body this small is simply read to its end and dropped, and the
 * connection kept: an answer often starts before a small body's last packet
 * (a 429 for a contact message), and closing for it would cost every such
 * client a new connection.
 */
const SMALL_BODY_BYTES = 64 * 1024;

const smallBodyDeclared = (req: Request) => Number(req.get("content-length") ?? Number.NaN) <= SMALL_BODY_BYTES;

/**
 * When an answer starts before its request's body has arrived whole (a 413,
 * a 401 before an upload, a 405 from a route that reads no body), it says
 * `Connection: close` unless the body is declared small; once it is sent, the
 * rest of the body is read and dropped, not kept, and a client still sending
 * after UNREAD_BODY_LINGER_MS is cut off.
 *
 * With `Connection: close` Node destroys the socket as soon
 * as the answer is flushed; with the body still arriving, that sends a reset
 * which can reach the client before it has read its 413. So the socket only
 * half-closes (the answer and a FIN go out) and lingers, dropping what comes,
 * until the client stops or the time is up: a "lingering close", as HTTP
 * servers do. (If Node stops registering `destroy` that way, removing it is a
 * no-op and the hostile-input tests see the resets again.)
 */
function dropUnreadBody(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  onHeaders(res, () => {
    if (!req.complete && !smallBodyDeclared(req)) res.setHeader("Connection", "close");
  });
  res.once("finish", () => {
    if (req.complete) return;
    const socket = req.socket;
    // Whatever was reading it (a route that stopped at its limit) is done.
    req.removeAllListeners("data");
    req.resume();
    const cutOff = setTimeout(() => socket.destroy(), UNREAD_BODY_LINGER_MS);
    cutOff.unref();
    if (String(res.getHeader("connection")).toLowerCase() !== "close") {
      // Kept alive: the rest arrives, then the next request on this connection.
      // (No listener goes on the socket, which outlives many requests.)
      req.once("end", () => clearTimeout(cutOff));
      return;
    }
    // Node registered this very function as the listener; it is looked up, not called.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- removing a listener by identity, never calling it unbound
    socket.removeListener("finish", socket.destroy);
    const done = () => {
      clearTimeout(cutOff);
      if (socket.writableEnded) socket.destroy();
    };
    req.once("end", done);
    socket.once("end", done);
    socket.once("close", () => clearTimeout(cutOff));
  });
  next();
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

  // Every answer is logged and carries the security headers, a cache hit as
  // much as a page Express renders: these run on the bare request first.
  const logRequests = pinoHttp({
    logger: log,
    // The serializers below get the request and response as they are (not
    // pino's standard shapes, which copy every header only to be narrowed).
    wrapSerializers: false,
    autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") ?? false },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  const setNonce = (_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    Object.assign(res, { locals: { cspNonce: cspNonce() } });
    next();
  };

  const secure = config.siteUrl.startsWith("https:");
  const securityHeaders = helmet({
    contentSecurityPolicy: development
      ? false
      : {
          useDefaults: true,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: [
              "'self'",
              ...PUBLIC_INLINE_SCRIPTS,
              (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`,
            ],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:", "https:"],
            connectSrc: ["'self'"],
            fontSrc: ["'self'", "data:"],
            frameAncestors: ["'none'"],
            formAction: ["'self'"],
            upgradeInsecureRequests: secure ? [] : null,
          },
        },
    strictTransportSecurity: secure,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });

  // The request checks. Each refuses only a request with a body or a method
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

  // Public answers are rendered once per content change (ADR 024): a hit is
  // answered before Express (handle, below); a miss is kept as the app writes it.
  const cache = development
    ? undefined
    : pageCache({
        readVersion: contentVersionReader(getConnection()),
        nextScheduledChange: () => nextScheduledChange(getDb()),
        // A file at the top of build/client is express.static's, whatever its name.
        cacheKey: (url) => (rootFiles.has(pathOf(url)) ? undefined : cacheKeyOf(url)),
        openEnded: isOpenEndedKey,
        logger: log,
        sessionCookie: sessionCookieName(config.secureCookies),
      });

  app.use(compression({ threshold: COMPRESSION_THRESHOLD }));

  if (clientDir) {
    // Hashed build assets never change: cache them for a year.
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    const serveRootFile = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()));
  }

  if (cache) app.use(cache.fillOnMiss);

  app.all(
    "/{*splat}",
    createRequestHandler({
      build,
      mode: development ? "development" : "production",
      getLoadContext: (req, res) => ({
        cspNonce: String(res.locals.cspNonce),
        clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
      }),
    }),
  );

  // A request Express itself refuses (a path whose percent-encoding does not
  // decode, say) is the client's error: a plain 4xx, logged once by the access
  // log, not a stack trace on stderr per request.
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const status = Number((error as { status?: unknown } | null)?.status);
    if (!res.headersSent && status >= 400 && status < 500) {
      res
        .status(status)
        .type("text/plain")
        .send(status === 400 ? "Bad request" : "Request refused");
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
  // What every answer gets, a cache hit included, in this order.
  const everyAnswer = [logRequests, setNonce, securityHeadersFrom(securityHeaders)];
  /** The server's request handler: what every answer gets, then a cache hit or Express. */
  return function handle(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) {
    const toExpress = () => expressApp(req, res, next);
    let step = 0;
    const nextStep = (error?: unknown) => {
      if (error) {
        log.error({ err: error }, "request failed before it reached the app");
        res.statusCode = 500;
        res.end();
        return;
      }
      const middleware = everyAnswer[step++];
      if (middleware) middleware(req, res, nextStep);
      else if (cache) cache.answerHits(req, res, toExpress);
      else toExpress();
    };
    nextStep();
  };
}
