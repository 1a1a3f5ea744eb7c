import pino from "pino";
import { getConfig } from "./config.server";

let instance: pino.Logger | undefined;

/** Structured JSON logs on stdout; level from LOG_LEVEL. */
export function getLogger(): pino.Logger {
  instance ??= pino({
    level: getConfig().logLevel,
    base: { pid: process.pid },
    redact: {
      paths: ["password", "*.password", "req.headers.cookie", 'res.headers["set-cookie"]'],
      censor: "[redacted]",
    },
  });
  return instance;
}
