/**
 * The signed-in admin (ADR 051): /admin and its screens are this layout's
 * children. It checks the session and loads the shell (the account, the
 * unread count) once for them all; sign-in, setup, sign-out and the
 * invitation page are outside it. Each screen's loader still calls
 * requireAdminPage, which a request answers once: a data request may ask
 * for the screen's loader alone (`/admin/messages.data?_routes=...`).
 */
import { useRef } from "react";
import { Outlet } from "react-router";
import { AdminShell, type AdminOutletContext } from "~/components/admin/admin-shell";
import { adminShellData } from "~/server/inbox/index.server";
import { requireAdminPage } from "~/server/identity/index.server";
import type { Route } from "./+types/layout";

/** Checks the session and loads the shell, for the admin screens. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminShellData(await requireAdminPage(request));
}

/**
 * Every navigation and action refreshes the shell, as when each screen
 * loaded it: the unread count beside "Messages" stays current (ADR 035).
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
      confirmLeave={() => leaveGuardRef.current?.() ?? true}
    >
      <Outlet context={context} />
    </AdminShell>
  );
}
