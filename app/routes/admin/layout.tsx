/**
 * The signed-in admin (ADR 051): /admin and its screens are this layout's
 * children. Its middleware checks the session once per request, before any
 * loader or action of the layout or a screen runs, a data request for one
 * screen's loader alone (`/admin/messages.data?_routes=...`) included: a
 * stranger is redirected to /admin/login. The screens read the administrator
 * with `signedInAdmin(context)`. Its loader loads the shell (the account, the
 * unread count, the failed jobs' count) once for them all; sign-in, setup, sign-out and the
 * invitation page are outside it.
 */
import { useRef } from "react";
import { Outlet } from "react-router";
import { AdminShell, type AdminOutletContext } from "~/components/admin/admin-shell";
import { adminShellData } from "~/server/messages/index.server";
import { countFailedJobs } from "~/server/jobs/index.server";
import { adminPageMiddleware, signedInAdmin } from "~/server/identity/index.server";
import { dbContext } from "~/server/platform/context.server";
import type { Route } from "./+types/layout";

export const middleware: Route.MiddlewareFunction[] = [adminPageMiddleware];

/** Loads the shell, for the admin screens. */
export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [shell, failedJobs] = await Promise.all([adminShellData(db, signedInAdmin(context)), countFailedJobs(db)]);
  return { ...shell, failedJobs };
}

/**
 * Every navigation and action refreshes the shell, as when each screen
 * loaded it: the unread count beside "Messages" and the failed jobs beside
 * "Activity" stay current (ADR 035, 067).
 */
export const shouldRevalidate = () => true;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  // The screen's question before leaving for the public site (the posts editor's unsaved changes).
  const leaveGuardRef = useRef<() => boolean>(undefined);
  const context: AdminOutletContext = { admin: loaderData, leaveGuardRef };
  return (
    <AdminShell
      email={loaderData.email}
      unreadMessages={loaderData.unreadMessages}
      failedJobs={loaderData.failedJobs}
      confirmLeave={() => leaveGuardRef.current?.() ?? true}
    >
      <Outlet context={context} />
    </AdminShell>
  );
}
