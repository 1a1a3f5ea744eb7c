import { PAGE_TITLES } from "~/content/pages";
import { isContentName } from "~/lib/site-content";
import { pageMeta } from "~/lib/seo";
import { dbContext } from "~/server/platform/context.server";
import { listContentRevisions, readDraft, readPublished } from "~/server/pages/index.server";
import type { Route } from "./+types/route";
import { PageEditor } from "./page-editor";

/** /admin/pages/{name}: the editor of one page's content (ADR 053), its draft, preview, publishing and history. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const name = params.name;
  if (name.length > 40 || !isContentName(name)) throw new Response("Not found", { status: 404 });
  const db = context.get(dbContext);
  const [published, draft, revisions] = await Promise.all([
    readPublished(db, name),
    readDraft(db, name),
    listContentRevisions(db, name),
  ]);
  return { name, published, draft: draft ?? null, revisions };
}

export const meta = ({ data }: Route.MetaArgs) =>
  pageMeta({ title: `${data ? PAGE_TITLES[data.name] : "Pages"} | Blog Admin`, noindex: true });

export default function AdminPageEditor({ loaderData }: Route.ComponentProps) {
  // A new editor (and its state) for each page.
  return <PageEditor key={loaderData.name} {...loaderData} />;
}
