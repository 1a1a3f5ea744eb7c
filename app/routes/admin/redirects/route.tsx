import { redirect, useActionData, useNavigation } from "react-router";
import { AdminScreen, listLoading } from "~/components/admin/admin-screen";
import { Pager } from "~/components/admin/pager";
import { redirectsText as text } from "~/content/redirects";
import { pageCount } from "~/lib/admin-lists";
import { REDIRECT_LIMITS } from "~/lib/redirects";
import { pageMeta } from "~/lib/seo";
import { dbContext } from "~/server/platform/context.server";
import { jsonError } from "~/server/platform/http.server";
import { listRedirects, parseRedirectScreenQuery } from "~/server/redirects/index.server";
import type { Route } from "./+types/route";
import { redirectsAction } from "./actions.server";
import { ImportForm } from "./import-form";
import { RedirectFields } from "./redirect-fields";
import { RedirectRow } from "./redirect-row";
import { SearchForm } from "./search-form";

/** The screen's address for a page and a search. */
export function redirectsHref({ page = 1, q = "" }: { page?: number; q?: string } = {}): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `/admin/redirects?${search}` : "/admin/redirects";
}

/** /admin/redirects?q=&page=(&from=): the redirects by `from`, searched and paged (ADR 054). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = parseRedirectScreenQuery(url);
  if (!query.ok) throw jsonError(400, query.message);
  const { redirects, total } = await listRedirects(context.get(dbContext), query.value);
  const { page, q = "" } = query.value;
  const pages = pageCount(total);
  if (page > pages) throw redirect(redirectsHref({ page: pages, q }));
  // "Redirect this" on the Not found screen opens this one with its path filled in.
  const from = (url.searchParams.get("from") ?? "").slice(0, REDIRECT_LIMITS.from);
  return { redirects, total, page, pages, q, from };
}

export const action = ({ request, context }: Route.ActionArgs) => redirectsAction(request, context);

export const meta = () => pageMeta({ title: "Redirects | Blog Admin", noindex: true });

export default function AdminRedirects({ loaderData }: Route.ComponentProps) {
  const { redirects, total, page, pages, q, from } = loaderData;
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const intent = navigation.formData?.get("intent");
  const loading = listLoading(navigation, "/admin/redirects");
  return (
    <AdminScreen width="5xl" title={text.title} intro={text.intro}>
      {result && "error" in result && (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          {result.error}
        </p>
      )}
      {result && "done" in result && (
        <p role="status" className="mt-4 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-green-900">
          {result.done}
        </p>
      )}
      <section aria-labelledby="add-redirect" className="mt-6 rounded-lg border border-neutral-200 bg-white p-4">
        <h2 id="add-redirect" className="text-xl font-semibold">
          {text.addHeading}
        </h2>
        {/* A new key after a save empties the fields; "Redirect this" fills in from. */}
        <RedirectFields
          key={result && "done" in result ? result.done : from}
          idPrefix="new"
          from={from}
          intent="create"
          submit={intent === "create" ? text.adding : text.add}
          busy={intent === "create"}
        />
      </section>
      <ImportForm result={result} busy={navigation.formData?.has("file") === true} />
      <SearchForm q={q} exportable={total > 0} />
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-6 text-neutral-700">
        {loading ? text.loading : total === 0 ? (q ? text.noMatch : text.none) : text.count(total, page, pages)}
      </p>
      {redirects.length > 0 && (
        <ul
          aria-label={text.listName}
          aria-busy={loading}
          className={`mt-2 flex flex-col gap-2 ${loading ? "opacity-60" : ""}`}
        >
          {redirects.map((item) => (
            <RedirectRow key={`${item.id}-${item.updatedAt}`} redirect={item} busyId={navigation.formData?.get("id")} />
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} hrefFor={(n) => redirectsHref({ page: n, q })} label={text.pagerLabel} />
    </AdminScreen>
  );
}
