import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { Link, redirect, useBlocker, useNavigation, useRevalidator } from "react-router";
import { useAdminShell, useConfirmLeave } from "~/components/admin/admin-shell";
import { ApiFailure, deletePost, EditConflict, fetchPost, savePost } from "./admin-api";
import { clearLocalDraft } from "./editor/autosave";
import { DeletePostDialog } from "./delete-post-dialog";
import { ListFilterForm, useListFilter } from "~/components/admin/list-filter";
import { Pager } from "~/components/admin/pager";
import { PostEditor } from "./editor/post-editor";
import {
  draftFromPost,
  LEAVE_CONFIRMATION,
  missingImageAlt,
  missingRequiredFields,
  newPostDraft,
  NO_POST_MESSAGE,
  type PostDraft,
  sameDraft,
} from "./post-draft";
import { PostsTable, type RowBusy } from "./posts-table";
import { adminListHref, countOf, MAX_TITLE_FILTER, pageCount, POST_SORT_LABELS } from "~/lib/admin-lists";
import { conflictText } from "~/content/revisions";
import { pageMeta } from "~/lib/seo";
import { requireAdminPage } from "~/server/auth.server";
import { getDb } from "~/server/db/index.server";
import { jsonError } from "~/server/http.server";
import { parsePostScreenQuery } from "~/server/list-query.server";
import { listAdminPosts } from "~/server/posts.server";
import { siteSettingsFor } from "~/server/settings.server";
import type { Route } from "./+types/route";

/** /admin?q=&sort=&page=: one page of the posts list (ADR 026). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminPage(request);
  const query = parsePostScreenQuery(new URL(request.url));
  if (!query.ok) throw jsonError(400, query.message);
  const { page, q = "", sort } = query.value;
  const { posts, total } = await listAdminPosts(getDb(), query.value);
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

interface EditorState {
  /** The draft as opened (or last saved), to tell whether anything changed. */
  initial: PostDraft;
  draft: PostDraft;
  /** Remounts the editor for each opening. */
  key: number;
  /** The stored post's updatedAt the draft is based on (ADR 043): a save from an older one is refused. */
  base?: string;
}

type Notice = { kind: "status" | "error"; text: string; link?: { to: string; label: string } };

function describeSaved(post: { title: string; slug: string; published: boolean; publishDate: string }): Notice {
  const live = post.published && Date.parse(post.publishDate) <= Date.now();
  return {
    kind: "status",
    text: `"${post.title}" was saved${post.published ? (live ? " and is published." : " and is scheduled.") : " as a draft."}`,
    link: live ? { to: `/blog/${post.slug}`, label: "View it on the blog" } : undefined,
  };
}

export default function BlogAdmin({ loaderData }: Route.ComponentProps) {
  const { author, posts, total, page, pages, q, sort } = loaderData;
  const admin = useAdminShell();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const listLoading = navigation.state === "loading" && navigation.location.pathname === "/admin";
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [notice, setNotice] = useState<Notice>();
  const [discarded, setDiscarded] = useState<EditorState | null>(null);
  const [busy, setBusy] = useState<RowBusy>();
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(new Set());
  const [confirmingDelete, setConfirmingDelete] = useState<{ id: string; title: string }>();
  const createButton = useRef<HTMLButtonElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const openings = useRef(0);

  const filter = useListFilter(q, sort, (view) => adminListHref("/admin", { q: view.q, sort: view.choice }));

  const dirty = editor !== null && !sameDraft(editor.initial, editor.draft);

  function open(draft: PostDraft, base?: string) {
    setNotice(undefined);
    setSaveError(undefined);
    setDiscarded(null);
    setEditor({ initial: draft, draft, key: ++openings.current, base });
  }

  function backToList() {
    setEditor(null);
    setSaveError(undefined);
    setUploading(false);
    requestAnimationFrame(() => createButton.current?.focus());
  }

  function close() {
    // Close returns to the list without saving (docs/product/interface.md#blog-admin). What was typed is
    // kept so that a mistaken close can be undone.
    if (editor && dirty) {
      setDiscarded(editor);
      setNotice({ kind: "status", text: "Closed without saving." });
    }
    backToList();
  }

  const save = useCallback(async () => {
    if (!editor) {
      window.alert(NO_POST_MESSAGE);
      return;
    }
    if (saving || uploading) return;
    const missing = missingRequiredFields(editor.draft);
    if (missing) {
      window.alert(missing);
      return;
    }
    const noAlt = missingImageAlt(editor.draft);
    if (noAlt) {
      setSaveError(noAlt);
      document.querySelector<HTMLInputElement>('input[name="headerImageAlt"]')?.focus();
      return;
    }
    setSaving(true);
    setSaveError(undefined);
    try {
      const saved = await savePost(editor.draft, { baseUpdatedAt: editor.base });
      clearLocalDraft(admin.email, editor.draft.id);
      setEditor(null);
      setDiscarded(null);
      setNotice(describeSaved(saved));
      requestAnimationFrame(() => createButton.current?.focus());
      await revalidator.revalidate();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      window.alert(`Error saving post: ${message}`);
      if (error instanceof EditConflict) {
        // Saving again replaces their version with this one, on purpose.
        setEditor((current) => current && { ...current, base: error.updatedAt });
        setSaveError(conflictText(error.updatedAt));
      } else if (error instanceof ApiFailure) {
        setSaveError(
          error.status === 401
            ? "Your session has ended. Sign in again in another tab, then press Save here: your changes are kept."
            : `The post was not saved: ${error.detail}. Your changes are kept.`,
        );
      } else {
        setSaveError("The post was not saved: the server could not be reached. Your changes are kept; try again.");
      }
    } finally {
      setSaving(false);
    }
  }, [editor, saving, uploading, revalidator, admin.email]);

  // The list leaves the markdown out: the editor opens the post as stored now.
  const latestOpening = useRef<string>(undefined);
  async function edit(id: string) {
    latestOpening.current = id;
    setBusy({ id, action: "opening" });
    setNotice(undefined);
    try {
      const post = await fetchPost(id);
      if (latestOpening.current === id) open(draftFromPost(post), post.updatedAt);
    } catch (error) {
      if (latestOpening.current !== id) return;
      console.error("Failed to fetch post", error);
      const gone = error instanceof ApiFailure && error.status === 404;
      const detail = error instanceof ApiFailure ? error.detail : "the server could not be reached";
      setNotice({
        kind: "error",
        text: gone ? "This post no longer exists; the list was refreshed." : `The post could not be opened: ${detail}.`,
      });
      requestAnimationFrame(() => noticeRef.current?.focus());
      if (gone) await revalidator.revalidate();
    } finally {
      if (latestOpening.current === id) {
        latestOpening.current = undefined;
        setBusy(undefined);
      }
    }
  }

  async function remove(id: string, { deleteImages }: { deleteImages: boolean }) {
    setBusy({ id, action: "deleting" });
    setNotice(undefined);
    try {
      await deletePost(id, { deleteImages });
      setDeletedIds((ids) => new Set(ids).add(id));
      setNotice({
        kind: "status",
        text: deleteImages ? "The post and the images only it used were deleted." : "The post was deleted.",
      });
      await revalidator.revalidate();
    } catch (error) {
      console.error("Failed to delete post", error);
      const detail = error instanceof ApiFailure ? error.detail : "the server could not be reached";
      setNotice({ kind: "error", text: `Failed to delete post: ${detail}.` });
    } finally {
      setBusy(undefined);
      requestAnimationFrame(() => noticeRef.current?.focus());
    }
  }

  // Ctrl/Cmd+S saves (and never opens the browser's "save page" dialog here).
  // An effect event: it always calls the latest save, without re-adding the listener.
  const saveFromShortcut = useEffectEvent(() => void save());
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        saveFromShortcut();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  // Unsaved changes: warn before the tab closes or reloads...
  const leaveConfirmed = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaveConfirmed.current) return;
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  // ...and before any in-app navigation (links, sign-out).
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(LEAVE_CONFIRMATION)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  // ...and before leaving for the public site, a full page load that the blocker does not see.
  const confirmLeave = () => {
    if (!dirty) return true;
    leaveConfirmed.current = window.confirm(LEAVE_CONFIRMATION);
    return leaveConfirmed.current;
  };
  useConfirmLeave(confirmLeave);

  const visiblePosts = posts.filter((post) => !deletedIds.has(post.id));

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Blog Admin</h1>
        {!editor && (
          <button
            ref={createButton}
            type="button"
            onClick={() => open(newPostDraft(author))}
            className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Create New Post
          </button>
        )}
      </div>

      {editor ? (
        <div className="mt-6 rounded-lg border border-neutral-200 bg-white p-4 shadow-sm sm:p-6">
          <PostEditor
            key={editor.key}
            draft={editor.draft}
            savedSlug={editor.initial.id ? editor.initial.slug : undefined}
            saving={saving}
            uploading={uploading}
            error={saveError}
            onChange={(draft) => setEditor((current) => current && { ...current, draft })}
            onSave={() => void save()}
            onClose={close}
            onUploadingChange={setUploading}
            baseUpdatedAt={editor.base}
            owner={admin.email}
            onRestore={(draft, base) =>
              setEditor((current) => current && { ...current, draft, base: base ?? current.base })
            }
          />
        </div>
      ) : (
        <>
          <div ref={noticeRef} tabIndex={-1} className="mt-4 outline-none">
            <div role="status" aria-live="polite">
              {notice?.kind === "status" && (
                <p className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md border border-brand-100 bg-brand-50 px-3 py-2 text-sm text-brand-900">
                  <span>{notice.text}</span>
                  {notice.link && (
                    <Link to={notice.link.to} className="font-medium underline underline-offset-2">
                      {notice.link.label}
                    </Link>
                  )}
                  {discarded && (
                    <button
                      type="button"
                      className="font-medium underline underline-offset-2"
                      onClick={() => {
                        setNotice(undefined);
                        setDiscarded(null);
                        setEditor({ ...discarded, key: ++openings.current });
                      }}
                    >
                      Restore unsaved changes
                    </button>
                  )}
                </p>
              )}
              {revalidator.state === "loading" && (
                <p className="mt-2 text-sm text-neutral-700">Refreshing the list...</p>
              )}
            </div>
            <div role="alert">
              {notice?.kind === "error" && (
                <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
                  {notice.text}
                </p>
              )}
            </div>
          </div>
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
            {listLoading
              ? "Loading posts..."
              : (total > 0 || q) &&
                `${q ? `${countOf(total, "post")} ${total === 1 ? "matches" : "match"} “${q}”` : countOf(total, "post")}${
                  pages > 1 ? `, page ${page.toLocaleString("en-US")} of ${pages.toLocaleString("en-US")}` : ""
                }`}
          </p>
          <PostsTable
            posts={visiblePosts}
            sort={sort}
            busy={busy}
            loading={listLoading}
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
            onEdit={(id) => void edit(id)}
            onDelete={(id) => setConfirmingDelete(posts.find((post) => post.id === id))}
          />
          <Pager
            page={page}
            pages={pages}
            hrefFor={(n) => adminListHref("/admin", { page: n, q, sort })}
            label="Pages of posts"
          />
          <DeletePostDialog
            title={confirmingDelete?.title}
            onCancel={() => setConfirmingDelete(undefined)}
            onConfirm={(options) => {
              const id = confirmingDelete!.id;
              setConfirmingDelete(undefined);
              void remove(id, options);
            }}
          />
        </>
      )}
    </>
  );
}
