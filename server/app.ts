import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { pageCache } from "./page-cache";
import "~/context";
import { getConfig } from "~/server/config.server";
import { contentVersionReader, nextScheduledChange } from "~/server/content-version.server";
import { getConnection, getDb } from "~/server/db/index.server";
import { getLogger } from "~/server/logger.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

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

export const MAX_BODY_BYTES = 1024 * 1024;
/** Uploads are limited to 10 MiB per file (PRODUCT §3); the envelope gets some room for multipart framing. */
export const MAX_UPLOAD_BODY_BYTES = 10 * 1024 * 1024 + 64 * 1024;

/**
 * Refuses a declared body over the limit before anything reads it. The
 * connection is closed so that the unread body cannot spoil the next request
 * on it; bodies without a length are capped where they are read.
 */
function limitDeclaredBodySize(req: Request, res: Response, next: NextFunction) {
  const limit = req.path === "/api/admin/upload" ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES;
  const declared = Number(req.get("content-length") ?? 0);
  if (declared > limit) {
    res.set("Connection", "close");
    res.status(413).json({ error: `Request body is too large (${limit} bytes at most)` });
    return;
  }
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

  app.use(
    pinoHttp({
      logger: log,
      autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") ?? false },
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });

  const secure = config.siteUrl.startsWith("https:");
  app.use(
    helmet({
      contentSecurityPolicy: development
        ? false
        : {
            useDefaults: true,
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
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
    }),
  );

  app.use(compression());
  app.use(refuseCrossOriginWrites(config.siteUrl));
  app.use(limitDeclaredBodySize);

  if (clientDir) {
    // Hashed build assets never change: cache them for a year.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    // The few files at the top of build/client (favicon, ...). Only their
    // exact paths reach express.static, so page requests cost no file lookup.
    const rootFiles = new Set(
      fs
        .readdirSync(clientDir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `/${entry.name}`),
    );
    const serveRootFile = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (rootFiles.has(req.path) ? serveRootFile(req, res, next) : next()));
  }

  if (!development) {
    app.use(
      pageCache({
        readVersion: contentVersionReader(getConnection()),
        nextScheduledChange: () => nextScheduledChange(getDb()),
      }),
    );
  }

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

  return app;
}
