/**
 * The posts screen's list (ADR 026): the title filter and sort, the count,
 * the table, its pages, and the delete question.
 */
import { ListFilterForm, type ListFilter } from "~/components/admin/list-filter";
import { Pager } from "~/components/admin/pager";
import { adminListHref, countOf, MAX_TITLE_FILTER, POST_SORT_LABELS, type PostSort } from "~/lib/admin-lists";
import { DeletePostDialog } from "./delete-post-dialog";
import { type PostRow, PostsTable } from "./posts-table";
import type { usePostRows } from "./use-post-rows";

/** "3 posts match “iot”, page 1 of 2". */
function describeList({ total, q, page, pages }: { total: number; q: string; page: number; pages: number }) {
  return `${q ? `${countOf(total, "post")} ${total === 1 ? "matches" : "match"} “${q}”` : countOf(total, "post")}${
    pages > 1 ? `, page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""
  }`;
}

export function PostsList({
  list: { posts, total, page, pages, q, sort },
  filter,
  rows,
  loading,
}: {
  list: { posts: PostRow[]; total: number; page: number; pages: number; q: string; sort: PostSort };
  filter: ListFilter<PostSort>;
  rows: ReturnType<typeof usePostRows>;
  /** Another page or filter on its way. */
  loading: boolean;
}) {
  const visiblePosts = posts.filter((post) => !rows.deletedIds.has(post.id));
  return (
    <>
      {(total > 0 || q) && (
        <ListFilterForm
          filter={filter}
          name="Posts"
          action="/admin"
          searchLabel="Filter by title"
          maxLength={MAX_TITLE_FILTER}
          choiceName="sort"
          choiceLabel="Sort"
          choices={POST_SORT_LABELS}
        />
      )}
      {/* Not a status role: the notices above are the page's one status. */}
      <p aria-live="polite" aria-atomic="true" className="mt-4 min-h-5 text-sm text-neutral-700">
        {loading ? "Loading posts..." : (total > 0 || q) && describeList({ total, q, page, pages })}
      </p>
      <PostsTable
        posts={visiblePosts}
        sort={sort}
        busy={rows.busy}
        loading={loading}
        empty={
          q ? (
            <p>
              {`No posts match “${q}”.`}{" "}
              <button
                type="button"
                className="font-medium text-brand-800 underline underline-offset-2"
                onClick={() => {
                  filter.setText("");
                  filter.show({ q: "", choice: sort });
                }}
              >
                Clear the filter
              </button>
            </p>
          ) : total > 0 ? (
            <p>No posts on this page.</p>
          ) : (
            <p>No blog posts yet.</p>
          )
        }
        onEdit={(id) => void rows.edit(id)}
        onDelete={(id) => rows.setConfirmingDelete(posts.find((post) => post.id === id))}
      />
      <Pager
        page={page}
        pages={pages}
        hrefFor={(n) => adminListHref("/admin", { page: n, q, sort })}
        label="Pages of posts"
      />
      <DeletePostDialog
        title={rows.confirmingDelete?.title}
        onCancel={() => rows.setConfirmingDelete(undefined)}
        onConfirm={(options) => {
          const id = rows.confirmingDelete!.id;
          rows.setConfirmingDelete(undefined);
          void rows.remove(id, options);
        }}
      />
    </>
  );
}
