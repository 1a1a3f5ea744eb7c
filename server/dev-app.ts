import type { NextFunction, Request, Response } from "express";
import { prepareApp } from "./startup";
import { createApp } from "./app";
import { getDb, startListening } from "~/server/db/index.server";
import { startJobs } from "~/server/jobs/index.server";
import { getConfig } from "~/server/platform/config.server";

/** Loaded by server/dev.ts through Vite, so that edits reload. */
let app: ReturnType<typeof createApp> | undefined;

export const prepare = prepareApp;

export function handle(req: Request, res: Response, next: NextFunction) {
  if (!app) {
    app = createApp({ development: true, build: () => import("virtual:react-router/server-build") });
    const { jobs } = getConfig();
    startJobs({
      db: getDb,
      concurrency: jobs.workers,
      delayScale: jobs.delayScale,
      listener: startListening(),
    });
  }
  app(req, res, next);
}
