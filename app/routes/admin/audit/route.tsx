import { Form, redirect, useNavigation } from "react-router";
import { Pager } from "~/components/admin/pager";
import { countOf, pageCount } from "~/lib/admin-lists";
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  auditActorText,
  auditNetworkText,
  isAuditAction,
  userAgentSummary,
} from "~/lib/audit";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { listAdministrators } from "~/server/identity/index.server";
import { listAuditEntries, parseAuditScreenQuery } from "~/server/audit/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError } from "~/server/platform/http.server";
import type { Route } from "./+types/route";

function auditHref({ page = 1, action = "", admin = "" }: { page?: number; action?: string; admin?: string }) {
  const params = new URLSearchParams();
  if (action) params.set("action", action);
  if (admin) params.set("admin", admin);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `/admin/audit?${search}` : "/admin/audit";
}

/** /admin/audit?action=&admin=&page=: the audit log, newest first (ADR 038). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseAuditScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const db = context.get(dbContext);
  const [{ entries, total }, administrators] = await Promise.all([
    listAuditEntries(db, query.value),
    listAdministrators(db),
  ]);
  const { page, action = "", admin: adminFilter = "" } = query.value;
  const pages = pageCount(total);
  if (page > pages) throw redirect(auditHref({ page: pages, action, admin: adminFilter }));
  return {
    administrators: administrators.map((a) => ({ id: a.id, label: a.name ? `${a.name} (${a.email})` : a.email })),
    entries,
    total,
    page,
    pages,
    action,
    adminFilter,
  };
}

export const meta = () => pageMeta({ title: "Audit | Blog Admin", noindex: true });

const selectClass = "h-11 rounded-md border border-neutral-400 bg-white px-3 text-base text-neutral-900";

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { administrators, entries, total, page, pages, action, adminFilter } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/audit";
  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="text-3xl font-bold">Audit</h1>
      <p className="mt-1 text-neutral-700">
        Who signed in and what they changed, newest first. Each entry shows the network it came from, not the full
        address: 203.0.113.0/24 stands for any address from 203.0.113.0 to 203.0.113.255. Entries are kept for a set
        time, then removed.
      </p>
      <Form method="get" role="search" aria-label="Audit log" className="mt-6 flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="audit-action" className="text-sm font-semibold text-neutral-800">
            Action
          </label>
          <select id="audit-action" name="action" defaultValue={action} className={selectClass}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((value) => (
              <option key={value} value={value}>
                {AUDIT_ACTION_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="audit-admin" className="text-sm font-semibold text-neutral-800">
            Administrator
          </label>
          <select id="audit-admin" name="admin" defaultValue={adminFilter} className={`${selectClass} max-w-full`}>
            <option value="">Everyone</option>
            {administrators.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="h-11 rounded-md bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800">
          Show
        </button>
      </Form>
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-5 text-sm text-neutral-700">
        {loading
          ? "Loading entries..."
          : `${countOf(total, "entry", "entries")}${
              pages > 1 ? `, page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""
            }`}
      </p>
      {entries.length === 0 ? (
        <p className="mt-4 text-neutral-700">No entries{action || adminFilter ? " match these filters" : " yet"}.</p>
      ) : (
        <ol aria-busy={loading} className={`mt-4 flex flex-col gap-2 ${loading ? "opacity-60" : ""}`}>
          {entries.map((entry) => (
            <li
              key={entry.id}
              data-action={entry.action}
              className="grid gap-x-4 gap-y-1 rounded-lg border border-neutral-200 bg-white p-3 text-sm sm:grid-cols-[11rem_1fr]"
            >
              <time dateTime={entry.at} className="text-neutral-700">
                {formatDate(entry.at)} {entry.at.slice(11, 19)} UTC
              </time>
              <div className="min-w-0">
                <p>
                  <strong className={entry.action === "sign-in-failed" ? "text-red-800" : undefined}>
                    {isAuditAction(entry.action) ? AUDIT_ACTION_LABELS[entry.action] : entry.action}
                  </strong>
                  {entry.target && <span className="break-words"> · {entry.target}</span>}
                </p>
                <p className="break-words text-neutral-700">
                  {auditActorText(entry)} · {auditNetworkText(entry.clientAddress)} ·{" "}
                  {userAgentSummary(entry.userAgent)}
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
      <Pager
        page={page}
        pages={pages}
        hrefFor={(n) => auditHref({ page: n, action, admin: adminFilter })}
        label="Pages of the audit log"
      />
    </div>
  );
}
