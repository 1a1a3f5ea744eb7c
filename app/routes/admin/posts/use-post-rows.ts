/**
 * The posts list's row actions: opening a post in the editor (as stored
 * now: the list leaves the markdown out) and deleting one, with the notice
 * each leaves.
 */
import { type RefObject, useRef, useState } from "react";
import type { useRevalidator } from "react-router";
import { ApiFailure, deletePost, fetchPost } from "./admin-api";
import { draftFromPost, type PostDraft } from "./post-draft";
import type { RowBusy } from "./posts-table";
import type { Notice } from "./use-post-editing";

export function usePostRows({
  open,
  setNotice,
  noticeRef,
  revalidator,
}: {
  open: (draft: PostDraft, base?: string) => void;
  setNotice: (notice: Notice | undefined) => void;
  /** The notices' box, focused when a row's action ends in one. */
  noticeRef: RefObject<HTMLDivElement | null>;
  revalidator: ReturnType<typeof useRevalidator>;
}) {
  const [busy, setBusy] = useState<RowBusy>();
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(new Set());
  const [confirmingDelete, setConfirmingDelete] = useState<{ id: string; title: string }>();

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

  return { busy, deletedIds, confirmingDelete, setConfirmingDelete, edit, remove };
}
