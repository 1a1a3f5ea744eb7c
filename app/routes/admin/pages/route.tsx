import { Link } from "react-router";
import { AdminScreen } from "~/components/admin/admin-screen";
import { PAGE_DESCRIPTIONS, PAGE_TITLES, pagesText } from "~/content/pages";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { dbContext } from "~/server/platform/context.server";
import { listContentSummaries } from "~/server/pages/index.server";
import type { Route } from "./+types/route";

/** /admin/pages: the pages whose words and prices the owner edits (ADR 053), a fixed list of four. */
export async function loader({ context }: Route.LoaderArgs) {
  const pages = await listContentSummaries(context.get(dbContext));

  return { pages };
}

export const meta = () => pageMeta({ title: "Pages | Blog Admin", noindex: true });

export default function AdminPages({ loaderData }: Route.ComponentProps) {
  return (
    <AdminScreen width="3xl" title={pagesText.screenTitle} intro={pagesText.screenIntro}>
      <ul className="mt-6 flex flex-col gap-4">
        {loaderData.pages.map((page) => (
          <li key={page.name} className="rounded-lg border border-neutral-200 bg-white p-5">
            <h2 className="text-xl font-semibold">
              <Link
                to={`/admin/pages/${page.name}`}
                className="text-brand-800 underline underline-offset-2 hover:text-brand-900"
              >
                {pagesText.edit(PAGE_TITLES[page.name])}
              </Link>
            </h2>
            <p className="mt-1 text-neutral-800">{PAGE_DESCRIPTIONS[page.name]}</p>
            <p className="mt-2 text-sm text-neutral-700">
              {page.version === 0 || !page.publishedAt
                ? pagesText.original
                : pagesText.publishedAt(formatDate(page.publishedAt), page.publishedBy)}
              {page.hasDraft && (
                <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 font-medium text-amber-950">
                  {pagesText.hasDraft}
                </span>
              )}
            </p>
          </li>
        ))}
      </ul>
    </AdminScreen>
  );
}
