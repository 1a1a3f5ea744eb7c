/**
 * The posts screen's notices above the list: what was saved or deleted (with
 * "Restore unsaved changes" after a close), the refresh, and errors.
 */
import type { RefObject } from "react";
import { Link } from "react-router";
import type { Notice } from "./use-post-editing";

export function PostsNotice({
  notice,
  noticeRef,
  refreshing,
  onRestore,
}: {
  notice: Notice | undefined;
  /** Focused when a row's action ends in a notice. */
  noticeRef: RefObject<HTMLDivElement | null>;
  refreshing: boolean;
  /** Set while a closed draft can be restored. */
  onRestore?: () => void;
}) {
  return (
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
            {onRestore && (
              <button type="button" className="font-medium underline underline-offset-2" onClick={onRestore}>
                Restore unsaved changes
              </button>
            )}
          </p>
        )}
        {refreshing && <p className="mt-2 text-sm text-neutral-700">Refreshing the list...</p>}
      </div>
      <div role="alert">
        {notice?.kind === "error" && (
          <p className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">{notice.text}</p>
        )}
      </div>
    </div>
  );
}
