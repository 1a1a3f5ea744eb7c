import { data, redirect, useNavigation } from "react-router";
import { AdminScreen, listLoading } from "~/components/admin/admin-screen";
import { useListFilter } from "~/components/admin/list-filter";
import { Pager } from "~/components/admin/pager";
import { type StatusFilter, subscribersAdminText as text } from "~/content/subscribers-admin";
import { pageCount } from "~/lib/admin-lists";
import { pageMeta } from "~/lib/seo";
import {
  countSubscribers,
  listMailings,
  listSubscribers,
  SUBSCRIBER_IMPORT_LIMITS,
  subscriberList,
} from "~/server/newsletter/index.server";
import { dbContext } from "~/server/platform/context.server";
import { jsonError } from "~/server/platform/http.server";
import type { Route } from "./+types/route";
import { subscribersAction } from "./actions.server";
import { ImportForm } from "./import-form";
import { MailingsList } from "./mailings-list";
import { RemoveNotice } from "./remove-notice";
import { SubscriberFilter } from "./subscriber-filter";
import { SubscribersTable } from "./subscribers-table";
import { subscribersHref } from "./view";

/** The posts e-mailed the screen shows: the newest. */
const MAILINGS_SHOWN = 20;

/**
 * /admin/subscribers?status=&q=&page=: the newsletter's subscribers (issue
 * 46, ADR 072), filtered by status and by part of the address, paged like
 * the other admin lists; their import and export; the posts e-mailed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // The form's "All" without the page's script: the same view as no status.
  if (["", "all"].includes(url.searchParams.get("status") ?? "x")) url.searchParams.delete("status");
  const query = subscriberList.screen(url);
  if (!query.ok) throw jsonError(400, query.message);
  const db = context.get(dbContext);
  const [{ subscribers, total }, counts, { mailings }] = await Promise.all([
    listSubscribers(db, query.value),
    countSubscribers(db),
    listMailings(db, { limit: MAILINGS_SHOWN, offset: 0 }),
  ]);
  const { page, status = "all", q = "" } = query.value;
  const view: { status: StatusFilter; q: string } = { status, q };
  // Past the end (the last ones were removed, an old link): the last page.
  const pages = pageCount(total);
  if (page > pages) throw redirect(subscribersHref({ ...view, page: pages }));
  return { subscribers, total, counts, mailings, page, pages, view, limits: SUBSCRIBER_IMPORT_LIMITS };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { answer, status } = await subscribersAction(request, context);
  return data(answer, { status });
}

export const meta = () => pageMeta({ title: `${text.title} | Blog Admin`, noindex: true });

export default function AdminSubscribers({ loaderData, actionData }: Route.ComponentProps) {
  const { subscribers, total, counts, mailings, page, pages, view, limits } = loaderData;
  const navigation = useNavigation();
  const loading = listLoading(navigation, "/admin/subscribers");
  const filter = useListFilter(view.q, view.status, (next) => subscribersHref({ status: next.choice, q: next.q }));
  const removeAnswer = actionData && "removed" in actionData ? actionData : undefined;
  const importAnswer = actionData && !("removed" in actionData) ? actionData : undefined;
  const anyone = counts.confirmed + counts.pending + counts.unsubscribed > 0;
  const filtered = view.status !== "all" || view.q !== "";
  return (
    <AdminScreen width="5xl" title={text.title} intro={text.intro}>
      <p className="mt-4 font-semibold text-neutral-900">{text.summary(counts)}</p>
      <SubscriberFilter filter={filter} exportable={anyone} />
      <RemoveNotice answer={removeAnswer} />
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-6 text-neutral-700">
        {loading ? text.loading : total === 0 ? (filtered ? text.noMatch : text.none) : text.count(total, page, pages)}
      </p>
      {total === 0 && filtered && !loading && (
        <p className="mt-2">
          <a
            href="/admin/subscribers"
            onClick={(event) => {
              // The box empties and the view changes in one step (the search's pause would ask again).
              event.preventDefault();
              filter.setText("");
              filter.show({ q: "", choice: "all" });
            }}
            className="font-medium text-brand-800 underline underline-offset-2"
          >
            {text.showAll}
          </a>
        </p>
      )}
      <SubscribersTable subscribers={subscribers} loading={loading} busyId={navigation.formData?.get("id")} />
      <Pager page={page} pages={pages} hrefFor={(n) => subscribersHref({ ...view, page: n })} label={text.pagerLabel} />
      <ImportForm answer={importAnswer} limits={limits} busy={navigation.formData?.has("file") === true} />
      <MailingsList mailings={mailings} />
    </AdminScreen>
  );
}
