import type { NextFunction, Request, Response } from "express";
import { prepareApp } from "./startup";
import { createApp } from "./app";

/** Loaded by server/dev.ts through Vite, so that edits reload. */
let app: ReturnType<typeof createApp> | undefined;

export const prepare = prepareApp;

export function handle(req: Request, res: Response, next: NextFunction) {
  app ??= createApp({ development: true, build: () => import("virtual:react-router/server-build") });
  app(req, res, next);
}
