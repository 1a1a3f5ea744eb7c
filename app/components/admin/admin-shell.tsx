import { type RefObject, useEffect } from "react";
import { Form, NavLink, useOutletContext } from "react-router";
import { ADMIN_NAVIGATION, type AdminSection } from "~/content/admin-navigation";

/** Frame of every signed-in admin screen: admin navigation, the account and sign-out. */
export function AdminShell({
  email,
  unreadMessages = 0,
  failedJobs = 0,
  confirmLeave,
  children,
}: {
  email: string;
  /** Shown beside "Messages" (adminShellData, ADR 035): "Messages, 3 unread" to a screen reader. */
  unreadMessages?: number;
  /** Shown beside "Activity" (ADR 067): "Activity, 2 failed" to a screen reader. */
  failedJobs?: number;
  /** Asked before leaving for the public site; false keeps the visitor here. */
  confirmLeave?: () => boolean;
  children: React.ReactNode;
}) {
  /** The unread count beside Messages, the failed jobs beside Activity (none when zero). */
  const badge = (to: string): Badge | undefined => {
    if (to === "/admin/messages" && unreadMessages > 0)
      return { count: unreadMessages.toLocaleString("en-US"), says: "unread" };
    if (to === "/admin/activity" && failedJobs > 0)
      return { count: failedJobs.toLocaleString("en-US"), says: "failed" };
    return undefined;
  };
  return (
    <div className="min-h-screen bg-neutral-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2 focus:text-black"
      >
        Skip to content
      </a>
      <header className="border-b border-neutral-200 bg-brand-800 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <span className="text-lg font-semibold tracking-tight">Admin</span>
          <nav aria-label="Admin">
            <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm font-medium">
              {ADMIN_NAVIGATION.map((group) => (
                <li key={group.label} className="flex flex-wrap items-baseline gap-x-3">
                  <span id={`admin-nav-${group.label}`} className="text-xs uppercase tracking-wide text-brand-50">
                    {group.label}
                  </span>
                  {/* A group that wraps on a phone keeps its rows apart: touch targets 24 px apart at least. */}
                  <ul aria-labelledby={`admin-nav-${group.label}`} className="flex flex-wrap gap-x-3 gap-y-2">
                    {group.sections.map((section) => (
                      <li key={section.to}>
                        <SectionLink section={section} badge={badge(section.to)} />
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
              <li>
                {/* The public site is a set of full pages (ADR 018): a document load, which the page may confirm first. */}
                <a
                  href="/"
                  onClick={(event) => {
                    if (confirmLeave && !confirmLeave()) event.preventDefault();
                  }}
                  className="hover:underline underline-offset-4"
                >
                  View site
                </a>
              </li>
            </ul>
          </nav>
          <Form method="post" action="/admin/logout" className="ml-auto flex items-center gap-3 text-sm">
            <span className="hidden text-brand-50 sm:inline">Signed in as {email}</span>
            <button
              type="submit"
              className="rounded-md border border-white/70 px-3 py-1.5 font-medium hover:bg-white hover:text-brand-800"
            >
              Sign out
            </button>
          </Form>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-8">
        {children}
      </main>
    </div>
  );
}

interface Badge {
  count: string;
  /** What the count counts, for a screen reader: "Messages, 3 unread". */
  says: string;
}

/** One screen's link, with its count (unread messages, failed jobs) when it has one. */
function SectionLink({ section, badge }: { section: AdminSection; badge: Badge | undefined }) {
  return (
    <NavLink
      to={section.to}
      // A screen's own pages (a message, a page's editor) keep its link current; Posts is /admin itself.
      end={section.to === "/admin"}
      // One name for a screen reader, "Messages, 3 unread", whatever the badge's layout.
      aria-label={badge ? `${section.label}, ${badge.count} ${badge.says}` : undefined}
      className={({ isActive }) =>
        isActive ? "underline decoration-2 underline-offset-4" : "hover:underline underline-offset-4"
      }
    >
      {section.label}
      {badge && (
        <span className="ml-1.5 inline-block min-w-5 rounded-full bg-white px-1.5 text-center text-xs font-bold leading-5 text-brand-800">
          {badge.count}
        </span>
      )}
    </NavLink>
  );
}

/** What the admin layout (app/routes/admin/layout.tsx) hands its screens. */
export interface AdminOutletContext {
  /** The shell's data (adminShellData): the signed-in account, the unread count, the failed jobs. */
  admin: { email: string; unreadMessages: number; failedJobs: number };
  /** The screen's question before the shell's "View site" leaves; none lets it go. */
  leaveGuardRef: RefObject<(() => boolean) | undefined>;
}

/** The signed-in account, for a screen inside the admin layout. */
export function useAdminShell(): AdminOutletContext["admin"] {
  return useOutletContext<AdminOutletContext>().admin;
}

/** Has the shell's "View site" ask `confirmLeave` first while the screen is shown. */
export function useConfirmLeave(confirmLeave: () => boolean) {
  const { leaveGuardRef } = useOutletContext<AdminOutletContext>();
  useEffect(() => {
    leaveGuardRef.current = confirmLeave;
    return () => {
      leaveGuardRef.current = undefined;
    };
  });
}
