/**
 * The admin's sign-in check as React Router middleware: the admin layout
 * (app/routes/admin/layout.tsx) and the /api/admin layout
 * (app/routes/api/admin.layout.ts) each list one of these, so every route
 * under them is refused to a stranger before any loader or action runs; a
 * route added there cannot forget the check. The administrator found is put
 * in `adminContext`, which loaders and actions read with `signedInAdmin`:
 * read outside these layouts it throws (React Router: no value for the
 * context) rather than let a request through unsigned.
 */
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { dbContext } from "../platform/context.server";
import { type AdminUser, requireAdminApi, requireAdminPage } from "./sessions.server";

const adminContext = createContext<AdminUser>();

/** /api/admin/*: a stranger gets 401 JSON `{"error":"Authentication required"}`. */
export const adminApiMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  context.set(adminContext, await requireAdminApi(request, context.get(dbContext)));
};

/** The admin screens: a stranger is redirected to /admin/login. */
export const adminPageMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  context.set(adminContext, await requireAdminPage(request, context.get(dbContext)));
};

/** The administrator the middleware signed in, for a loader or action under it. */
export function signedInAdmin(context: Readonly<RouterContextProvider>): AdminUser {
  return context.get(adminContext);
}
