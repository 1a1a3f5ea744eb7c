import { POST_SORT_LABELS, type PostSort } from "~/lib/admin-lists";
import { formatDate } from "~/lib/dates";

export interface PostRow {
  id: string;
  title: string;
  category: string;
  publishDate: string;
  published: boolean;
}

const iconButton =
  "inline-flex h-9 w-9 items-center justify-center rounded-md border border-neutral-300 bg-white text-neutral-800 hover:bg-neutral-100 disabled:opacity-50";

function PencilIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
      <path d="M13.6 2.6a2 2 0 0 1 2.8 0l1 1a2 2 0 0 1 0 2.8l-9.7 9.7-4.2 1.2a.6.6 0 0 1-.8-.8l1.2-4.2 9.7-9.7Zm-8.4 10.2-.6 2.1 2.1-.6 7.9-7.9-1.5-1.5-7.9 7.9Z" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
      <path d="M8 2h4a1 1 0 0 1 1 1v1h4a.75.75 0 0 1 0 1.5h-.8l-.8 11a2 2 0 0 1-2 1.5H6.6a2 2 0 0 1-2-1.5l-.8-11H3A.75.75 0 0 1 3 4h4V3a1 1 0 0 1 1-1Zm-2.7 3.5.8 10.9c0 .3.3.6.5.6h6.8c.3 0 .5-.3.5-.6l.8-10.9H5.3Zm3.2 2a.75.75 0 0 1 .75.7v6a.75.75 0 0 1-1.5 0v-6a.75.75 0 0 1 .75-.7Zm3 0a.75.75 0 0 1 .75.7v6a.75.75 0 0 1-1.5 0v-6a.75.75 0 0 1 .75-.7Z" />
    </svg>
  );
}

function Spinner() {
  return (
    <span
      className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
      aria-hidden="true"
    />
  );
}

/** Narrow screens: each cell becomes a "label value" line of a card. */
const cardCell = "max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2 max-sm:p-0";

function CardLabel({ children }: { children: React.ReactNode }) {
  // Hidden from assistive technology, which has the column header.
  return (
    <span aria-hidden="true" className="font-semibold text-neutral-700 sm:hidden">
      {children}
    </span>
  );
}

/** A row's action under way: its post is being opened in the editor, or deleted. */
export interface RowBusy {
  id: string;
  action: "opening" | "deleting";
}

/** The column an order sorts, and which way (aria-sort). */
function sortOf(sort: PostSort, column: "title" | "publishDate"): "ascending" | "descending" | undefined {
  if (sort.replace("-", "") !== column) return undefined;
  return sort.startsWith("-") ? "descending" : "ascending";
}

/**
 * The columns of docs/product/interface.md#blog-admin: Title, Category, Date, Status (Published or Draft), Actions (edit,
 * delete). One page of the list; the screen pages, filters and sorts it.
 */
export function PostsTable({
  posts,
  sort,
  busy,
  loading = false,
  empty,
  onEdit,
  onDelete,
}: {
  posts: PostRow[];
  /** The order the rows are in (the caption and the columns' aria-sort say it). */
  sort: PostSort;
  busy?: RowBusy;
  /** Another page is on its way: the rows shown are about to change. */
  loading?: boolean;
  /** What an empty page says instead of the table. */
  empty: React.ReactNode;
  onEdit: (id: string) => void;
  onDelete: (id: string) => void;
}) {
  if (posts.length === 0) {
    return (
      <div className="mt-6 rounded-lg border border-dashed border-neutral-300 bg-white p-8 text-center text-neutral-700">
        {empty}
      </div>
    );
  }
  const now = new Date().toISOString();
  return (
    <div
      aria-busy={loading}
      className={`mt-6 overflow-x-auto rounded-lg border border-neutral-200 bg-white shadow-sm transition-opacity ${loading ? "opacity-60" : ""}`}
    >
      {/* Explicit roles keep the table a table for assistive technology when
          narrow screens lay each row out as a card. */}
      <table role="table" className="w-full border-collapse text-left text-sm max-sm:block">
        <caption className="sr-only">Blog posts, {POST_SORT_LABELS[sort].toLowerCase()}</caption>
        <thead role="rowgroup" className="bg-neutral-100 text-neutral-800 max-sm:sr-only">
          <tr role="row">
            <th role="columnheader" scope="col" aria-sort={sortOf(sort, "title")} className="px-3 py-2 font-semibold">
              Title
            </th>
            <th role="columnheader" scope="col" className="px-3 py-2 font-semibold">
              Category
            </th>
            <th
              role="columnheader"
              scope="col"
              aria-sort={sortOf(sort, "publishDate")}
              className="px-3 py-2 font-semibold"
            >
              Date
            </th>
            <th role="columnheader" scope="col" className="px-3 py-2 font-semibold">
              Status
            </th>
            <th role="columnheader" scope="col" className="px-3 py-2 text-right font-semibold">
              Actions
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-sm:block">
          {posts.map((post) => {
            const opening = busy?.id === post.id && busy.action === "opening";
            const deleting = busy?.id === post.id && busy.action === "deleting";
            const scheduled = post.published && post.publishDate > now;
            return (
              <tr
                key={post.id}
                role="row"
                className="border-t border-neutral-200 align-middle max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:px-3 max-sm:py-3 max-sm:first:border-t-0"
              >
                <td
                  role="cell"
                  id={`post-title-${post.id}`}
                  className="min-w-40 px-3 py-2 font-medium text-neutral-900 max-sm:p-0 max-sm:text-base"
                >
                  {post.title}
                </td>
                <td role="cell" className={`px-3 py-2 ${cardCell}`}>
                  <CardLabel>Category</CardLabel>
                  {post.category}
                </td>
                <td role="cell" className={`whitespace-nowrap px-3 py-2 ${cardCell}`}>
                  <CardLabel>Date</CardLabel>
                  <time dateTime={post.publishDate}>{formatDate(post.publishDate)}</time>
                  {scheduled && <span className="block text-xs text-amber-800 max-sm:inline">Scheduled</span>}
                </td>
                <td role="cell" className={`px-3 py-2 ${cardCell}`}>
                  <CardLabel>Status</CardLabel>
                  <span
                    className={
                      post.published
                        ? "rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800"
                        : "rounded-full bg-neutral-200 px-2 py-0.5 text-xs font-semibold text-neutral-800"
                    }
                  >
                    {post.published ? "Published" : "Draft"}
                  </span>
                </td>
                <td role="cell" className="px-3 py-2 max-sm:p-0 max-sm:pt-1">
                  <div className="flex justify-end gap-2 max-sm:justify-start">
                    <button
                      type="button"
                      className={iconButton}
                      // Short names keep the post's title out of this cell's name; the
                      // description says which post the button acts on.
                      aria-label={opening ? "Opening" : "Edit"}
                      aria-describedby={`post-title-${post.id}`}
                      title="Edit"
                      disabled={opening || deleting}
                      onClick={() => onEdit(post.id)}
                    >
                      {opening ? <Spinner /> : <PencilIcon />}
                    </button>
                    <button
                      type="button"
                      className={`${iconButton} text-red-700 hover:bg-red-50`}
                      aria-label={deleting ? "Deleting" : "Delete"}
                      aria-describedby={`post-title-${post.id}`}
                      title="Delete"
                      disabled={opening || deleting}
                      onClick={() => onDelete(post.id)}
                    >
                      {deleting ? <Spinner /> : <TrashIcon />}
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
