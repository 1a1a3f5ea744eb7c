/**
 * /admin: the posts screen (docs/product/interface.md#blog-admin), the list
 * or the editor. Its state lives in hooks beside it (use-post-editing.ts,
 * use-post-rows.ts, unsaved-changes.ts); it changes posts through the JSON
 * API (admin-api.ts, ADR 051).
 */
import { useRef, useState } from "react";
import { redirect, useNavigation, useRevalidator } from "react-router";
import { useAdminShell } from "~/components/admin/admin-shell";
import { useListFilter } from "~/components/admin/list-filter";
import { adminListHref, pageCount } from "~/lib/admin-lists";
import { pageMeta } from "~/lib/seo";
import { dbContext } from "~/server/platform/context.server";
import { jsonError } from "~/server/platform/http.server";
import { parsePostScreenQuery, listAdminPosts } from "~/server/posts/index.server";
import { siteSettingsFor } from "~/server/settings/index.server";
import type { Route } from "./+types/route";
import { PostEditor } from "./editor/post-editor";
import { newPostDraft } from "./post-draft";
import { PostsList } from "./posts-list";
import { PostsNotice } from "./posts-notice";
import { useLeaveGuard, useSaveShortcut } from "./unsaved-changes";
import { type Notice, usePostEditing } from "./use-post-editing";
import { usePostRows } from "./use-post-rows";

/** /admin?q=&sort=&page=: one page of the posts list (ADR 026). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parsePostScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const { page, q = "", sort } = query.value;
  const { posts, total } = await listAdminPosts(context.get(dbContext), query.value);
  // Past the end (the last posts were deleted, an old link): the last page.
  const pages = pageCount(total);
  if (page > pages) throw redirect(adminListHref("/admin", { page: pages, q, sort }));
  return {
    author: (await siteSettingsFor(request)).companyName,
    posts,
    total,
    page,
    pages,
    q,
    sort,
  };
}

export const meta = () => pageMeta({ title: "Blog Admin", noindex: true });

export default function BlogAdmin({ loaderData }: Route.ComponentProps) {
  const { author, q, sort } = loaderData;
  const admin = useAdminShell();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const listLoading = navigation.state === "loading" && navigation.location.pathname === "/admin";
  const [notice, setNotice] = useState<Notice>();
  const noticeRef = useRef<HTMLDivElement>(null);
  const createButtonRef = useRef<HTMLButtonElement>(null);
  const editing = usePostEditing({ owner: admin.email, setNotice, revalidator, createButtonRef });
  const rows = usePostRows({ open: editing.open, setNotice, noticeRef, revalidator });
  const filter = useListFilter(q, sort, (view) => adminListHref("/admin", { q: view.q, sort: view.choice }));
  useSaveShortcut(editing.save);
  useLeaveGuard(editing.dirty);
  const { editor } = editing;

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Blog Admin</h1>
        {!editor && (
          <button
            ref={createButtonRef}
            type="button"
            onClick={() => editing.open(newPostDraft(author))}
            className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Create New Post
          </button>
        )}
      </div>

      {editor ? (
        <div className="mt-6 rounded-lg border border-neutral-200 bg-white p-4 shadow-sm sm:p-6">
          <PostEditor key={editor.key} editing={{ ...editing, editor }} />
        </div>
      ) : (
        <>
          <PostsNotice
            notice={notice}
            noticeRef={noticeRef}
            refreshing={revalidator.state === "loading"}
            onRestore={editing.canRestore ? editing.restoreDiscarded : undefined}
          />
          <PostsList list={loaderData} filter={filter} rows={rows} loading={listLoading} />
        </>
      )}
    </>
  );
}
