import { Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { AdminScreen, listLoading } from "~/components/admin/admin-screen";
import { Pager } from "~/components/admin/pager";
import { notFoundText as text } from "~/content/redirects";
import { pageCount } from "~/lib/admin-lists";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { jsonError, readFormBody } from "~/server/platform/http.server";
import { dismissNotFound, listNotFound, parseRedirectScreenQuery } from "~/server/redirects/index.server";
import type { Route } from "./+types/route";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";

const notFoundHref = (page: number) => (page > 1 ? `/admin/not-found?page=${page}` : "/admin/not-found");

/** /admin/not-found?page=: the not-found log, most hits first (ADR 054). */
export async function loader({ request, context }: Route.LoaderArgs) {
  // The same `page` as the Redirects screen's (its `q` is not used here).
  const query = parseRedirectScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const { entries, total } = await listNotFound(context.get(dbContext), query.value);
  const { page } = query.value;
  const pages = pageCount(total);
  if (page > pages) throw redirect(notFoundHref(pages));
  return { entries, total, page, pages };
}

/** "Dismiss": the path leaves the log until it is asked for again. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const form = await readFormBody(request);
  const path = String(form.get("path") ?? "");
  if (form.get("intent") !== "dismiss") return { error: "Unknown action" };
  if (await dismissNotFound(context.get(dbContext), path)) {
    await recordAudit({
      action: "not-found-dismissed",
      admin,
      target: path,
      request,
      clientAddress: context.get(clientAddressContext),
    });
  }
  return { done: text.dismissed(path) };
}

export const meta = () => pageMeta({ title: "Not found | Blog Admin", noindex: true });

export default function AdminNotFound({ loaderData }: Route.ComponentProps) {
  const { entries, total, page, pages } = loaderData;
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyPath = navigation.formData?.get("path");
  const loading = listLoading(navigation, "/admin/not-found");
  return (
    <AdminScreen width="5xl" title={text.title} intro={text.intro}>
      {result && "done" in result && (
        <p
          role="status"
          className="mt-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 break-words text-green-900"
        >
          {result.done}
        </p>
      )}
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-6 text-neutral-700">
        {loading ? text.loading : total === 0 ? text.none : text.count(total, page, pages)}
      </p>
      {entries.length > 0 && (
        <ul
          aria-label={text.listName}
          aria-busy={loading}
          className={`mt-2 flex flex-col gap-2 ${loading ? "opacity-60" : ""}`}
        >
          {entries.map((entry) => (
            <li
              key={entry.path}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-neutral-200 bg-white p-3 text-sm"
            >
              <div className="min-w-0 flex-[1_1_20rem]">
                <code className="font-semibold break-all">{entry.path}</code>
                <p className="mt-1 text-neutral-700">
                  {text.asked} {text.hits(entry.hits)} · {text.lastSeen}{" "}
                  <time dateTime={entry.lastSeenAt}>
                    {formatDate(entry.lastSeenAt)} {entry.lastSeenAt.slice(11, 16)} UTC
                  </time>{" "}
                  · {entry.referrerHost ? `${text.referrer} ${entry.referrerHost}` : text.noReferrer}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Link
                  to={`/admin/redirects?from=${encodeURIComponent(entry.path)}#add-redirect`}
                  aria-label={text.redirectLabel(entry.path)}
                  className="inline-flex min-h-10 items-center rounded-md bg-brand-700 px-3 font-medium text-white hover:bg-brand-800"
                >
                  {text.redirect}
                </Link>
                <Form method="post">
                  <input type="hidden" name="path" value={entry.path} />
                  <button
                    type="submit"
                    name="intent"
                    value="dismiss"
                    aria-label={text.dismissLabel(entry.path)}
                    disabled={busyPath === entry.path}
                    className="min-h-10 rounded-md border border-neutral-400 bg-white px-3 font-medium hover:bg-neutral-100"
                  >
                    {busyPath === entry.path ? text.dismissing : text.dismiss}
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} hrefFor={notFoundHref} label={text.pagerLabel} />
    </AdminScreen>
  );
}
