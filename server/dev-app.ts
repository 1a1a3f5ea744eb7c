import type { NextFunction, Request, Response } from "express";
import { prepareApp } from "./startup";
import { createApp } from "./app";
import { getDb } from "~/server/db/index.server";
import { getLogger } from "~/server/platform/logger.server";
import { startNotFoundLog } from "~/server/redirects/index.server";
import { startAnalytics } from "~/server/analytics/index.server";
import { getConfig } from "~/server/platform/config.server";

/** Loaded by server/dev.ts through Vite, so that edits reload. */
let app: ReturnType<typeof createApp> | undefined;

export const prepare = prepareApp;

export function handle(req: Request, res: Response, next: NextFunction) {
  if (!app) {
    app = createApp({ development: true, build: () => import("virtual:react-router/server-build") });
    startNotFoundLog(getDb, getLogger());
    void startAnalytics(getDb, getLogger(), { retentionDays: getConfig().analyticsRetentionDays });
  }
  app(req, res, next);
}
