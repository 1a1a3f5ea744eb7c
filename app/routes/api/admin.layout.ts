/**
 * Every /api/admin/* route is this pathless layout's child (app/routes.ts):
 * its middleware checks the session once, before the route's loader or
 * action, and answers a stranger 401 JSON, unknown paths included
 * (admin.unknown.ts). The routes read the administrator with
 * `signedInAdmin(context)`. tests/integration/admin-route-table.db.test.ts walks
 * the route table and proves every one refuses a stranger.
 */
import { adminApiMiddleware } from "~/server/identity/index.server";
import type { Route } from "./+types/admin.layout";

export const middleware: Route.MiddlewareFunction[] = [adminApiMiddleware];
