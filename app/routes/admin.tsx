import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { Link, useBlocker, useRevalidator } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { ApiFailure, deletePost, savePost } from "~/components/admin/admin-api";
import { PostEditor } from "~/components/admin/post-editor";
import {
  DELETE_CONFIRMATION,
  draftFromPost,
  LEAVE_CONFIRMATION,
  missingRequiredFields,
  newPostDraft,
  NO_POST_MESSAGE,
  type PostDraft,
  sameDraft,
} from "~/components/admin/post-draft";
import { PostsTable } from "~/components/admin/posts-table";
import { pageMeta } from "~/lib/seo";
import { requireAdminPage } from "~/server/auth.server";
import { getConfig } from "~/server/config.server";
import { getDb } from "~/server/db/index.server";
import { listAllPosts } from "~/server/posts.server";
import type { Route } from "./+types/admin";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdminPage(request);
  return {
    admin: { email: admin.email },
    author: getConfig().company.name,
    posts: await listAllPosts(getDb()),
  };
}

export const meta = () => pageMeta({ title: "Blog Admin", noindex: true });

interface EditorState {
  /** The draft as opened (or last saved), to tell whether anything changed. */
  initial: PostDraft;
  draft: PostDraft;
  /** Remounts the editor for each opening. */
  key: number;
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
  const { admin, author, posts } = loaderData;
  const revalidator = useRevalidator();
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [notice, setNotice] = useState<Notice>();
  const [discarded, setDiscarded] = useState<EditorState | null>(null);
  const [deletingId, setDeletingId] = useState<string>();
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(new Set());
  const createButton = useRef<HTMLButtonElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const openings = useRef(0);

  const dirty = editor !== null && !sameDraft(editor.initial, editor.draft);

  function open(draft: PostDraft) {
    setNotice(undefined);
    setSaveError(undefined);
    setDiscarded(null);
    setEditor({ initial: draft, draft, key: ++openings.current });
  }

  function backToList() {
    setEditor(null);
    setSaveError(undefined);
    setUploading(false);
    requestAnimationFrame(() => createButton.current?.focus());
  }

  function close() {
    // SPEC §4: close returns to the list without saving. What was typed is
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
    setSaving(true);
    setSaveError(undefined);
    try {
      const saved = await savePost(editor.draft);
      setEditor(null);
      setDiscarded(null);
      setNotice(describeSaved(saved));
      requestAnimationFrame(() => createButton.current?.focus());
      await revalidator.revalidate();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      window.alert(`Error saving post: ${message}`);
      if (error instanceof ApiFailure) {
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
  }, [editor, saving, uploading, revalidator]);

  async function remove(id: string) {
    if (!window.confirm(DELETE_CONFIRMATION)) return;
    setDeletingId(id);
    setNotice(undefined);
    try {
      await deletePost(id);
      setDeletedIds((ids) => new Set(ids).add(id));
      setNotice({ kind: "status", text: "The post was deleted." });
      await revalidator.revalidate();
    } catch (error) {
      console.error("Failed to delete post", error);
      const detail = error instanceof ApiFailure ? error.detail : "the server could not be reached";
      setNotice({ kind: "error", text: `Failed to delete post: ${detail}.` });
    } finally {
      setDeletingId(undefined);
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

  const visiblePosts = posts.filter((post) => !deletedIds.has(post.id));

  return (
    <AdminShell email={admin.email} confirmLeave={confirmLeave}>
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
          <PostsTable
            posts={visiblePosts}
            busyId={deletingId}
            onEdit={(id) => {
              const post = visiblePosts.find((p) => p.id === id);
              if (post) open(draftFromPost(post));
            }}
            onDelete={(id) => void remove(id)}
          />
        </>
      )}
    </AdminShell>
  );
}
