import { Form, redirect, useActionData, useNavigation } from "react-router";
import { AdminScreen, listLoading } from "~/components/admin/admin-screen";
import { Pager } from "~/components/admin/pager";
import { activityText as text, jobKindLabel } from "~/content/activity";
import { pageCount } from "~/lib/admin-lists";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { recordAudit } from "~/server/audit/index.server";
import { signedInAdmin } from "~/server/identity/index.server";
import { listFailedJobs, parseJobScreenQuery, retryJob } from "~/server/jobs/index.server";
import { jsonError, readFormBody } from "~/server/platform/http.server";
import { clientAddressContext, dbContext } from "~/server/platform/context.server";
import type { Route } from "./+types/route";

const activityHref = (page: number) => (page > 1 ? `/admin/activity?page=${page}` : "/admin/activity");
const when = (at: string) => `${formatDate(at)} ${at.slice(11, 16)} UTC`;

/** /admin/activity?page=: the failed jobs, most recently failed first (ADR 067). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseJobScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const { jobs, total } = await listFailedJobs(context.get(dbContext), query.value);
  const { page } = query.value;
  const pages = pageCount(total);
  if (page > pages) throw redirect(activityHref(pages));
  return { jobs, total, page, pages };
}

/** "Retry": the job is queued again with fresh attempts. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormBody(request);
  if (form.get("intent") !== "retry") return { error: "Unknown action" };
  const job = await retryJob(context.get(dbContext), String(form.get("id") ?? ""));
  if (!job) return { error: text.gone };
  await recordAudit({
    action: "job-retried",
    admin: signedInAdmin(context),
    target: job.kind,
    request,
    clientAddress: context.get(clientAddressContext),
  });
  return { done: text.retried(jobKindLabel(job.kind)) };
}

export const meta = () => pageMeta({ title: "Activity | Blog Admin", noindex: true });

export default function AdminActivity({ loaderData }: Route.ComponentProps) {
  const { jobs, total, page, pages } = loaderData;
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyId = navigation.formData?.get("id");
  const loading = listLoading(navigation, "/admin/activity");
  return (
    <AdminScreen width="5xl" title={text.title} intro={text.intro}>
      {result && (
        <p
          role="status"
          className={`mt-4 rounded-md border px-3 py-2 break-words ${
            "done" in result ? "border-green-300 bg-green-50 text-green-900" : "border-red-300 bg-red-50 text-red-900"
          }`}
        >
          {"done" in result ? result.done : result.error}
        </p>
      )}
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-6 text-neutral-700">
        {loading ? text.loading : total === 0 ? text.none : text.count(total, page, pages)}
      </p>
      {jobs.length > 0 && (
        <ul
          aria-label={text.listName}
          aria-busy={loading}
          className={`mt-2 flex flex-col gap-2 ${loading ? "opacity-60" : ""}`}
        >
          {jobs.map((job) => (
            <li
              key={job.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-neutral-200 bg-white p-3 text-sm"
            >
              <div className="min-w-0 flex-[1_1_20rem]">
                <p className="font-semibold">{jobKindLabel(job.kind)}</p>
                <p className="mt-1 text-neutral-700">
                  {text.failedAt} <time dateTime={job.failedAt}>{when(job.failedAt)}</time>{" "}
                  {text.attempts(job.attempts)}
                </p>
                <p className="mt-1 font-mono text-xs break-words text-red-800">{job.error ?? text.noError}</p>
              </div>
              <Form method="post">
                <input type="hidden" name="id" value={job.id} />
                <button
                  type="submit"
                  name="intent"
                  value="retry"
                  aria-label={text.retryLabel(jobKindLabel(job.kind), when(job.failedAt))}
                  disabled={busyId === job.id}
                  className="min-h-10 rounded-md bg-brand-700 px-3 font-medium text-white hover:bg-brand-800"
                >
                  {busyId === job.id ? text.retrying : text.retry}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} hrefFor={activityHref} label={text.pagerLabel} />
    </AdminScreen>
  );
}
