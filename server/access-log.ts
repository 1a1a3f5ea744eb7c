import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { redactSecretPath } from "~/lib/secret-paths";

/**
 * The access log: one line per answer (pino-http), at warn for a 4xx and
 * error for a 5xx; build assets are not logged. It runs for every answer, a
 * page-cache hit as much as a page Express renders (ADR 024).
 */
export function accessLog(logger: Logger) {
  return pinoHttp({
    logger,
    // The serializers below get the request and response as they are (not
    // pino's standard shapes, which copy every header only to be narrowed).
    wrapSerializers: false,
    autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") ?? false },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    serializers: {
      // An invitation's token is a password until it is used (ADR 038), a share
      // link's opens a draft (ADR 044): never in the log.
      req: (req: { method?: string; url?: string }) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactSecretPath(req.url),
      }),
      // A page-cache answer says which (hit, miss, or stale while the database is away: ADR 075).
      res: (res: { statusCode: number; getHeader(name: string): unknown }) => ({
        statusCode: res.statusCode,
        cache: res.getHeader("x-cache"),
      }),
    },
  });
}
