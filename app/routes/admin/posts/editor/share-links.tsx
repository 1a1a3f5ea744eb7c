import { useCallback, useEffect, useId, useRef, useState } from "react";
import { MAX_LIVE_SHARE_LINKS, SHARE_LINK_DAYS, type CreatedShareLink, type ShareLinkItem } from "~/lib/share-links";

/**
 * The editor's "Share a draft" section (ADR 044): make a secret link that
 * shows this post, as last saved, to someone without an account; copy it (it
 * is shown once); see the live links and revoke any of them. Mounted by
 * post-editor.tsx with one line; talks to /api/admin/posts/{id}/preview-links.
 *
 * No control's name holds "Preview", "Save", "Edit" or "Delete", and no label
 * a post field's name: tests find the editor's own controls by those words.
 */

const buttonClass =
  "rounded-md border border-neutral-400 bg-white px-4 py-2 font-medium hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-60";

async function errorOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === "string") return body.error;
  } catch {
    // not JSON
  }
  return `the server answered ${response.status}`;
}

const linksUrl = (postId: string) => `/api/admin/posts/${encodeURIComponent(postId)}/preview-links`;

async function fetchLinks(postId: string, signal?: AbortSignal): Promise<ShareLinkItem[]> {
  const response = await fetch(linksUrl(postId), {
    credentials: "include",
    headers: { Accept: "application/json" },
    cache: "no-store",
    signal,
  });
  if (!response.ok) throw new Error(await errorOf(response));
  return ((await response.json()) as { links: ShareLinkItem[] }).links;
}

/** "Dec 1, 2026, 3:04 PM" in the administrator's own time zone. */
const whenFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const when = (iso: string) => whenFormat.format(new Date(iso));

export function ShareLinks({ postId }: { postId?: string }) {
  const ids = useId();
  return (
    <section
      aria-labelledby={`${ids}-heading`}
      className="mt-8 flex flex-col gap-3 rounded-md border border-neutral-300 p-4"
    >
      <h3 id={`${ids}-heading`} className="font-semibold text-neutral-800">
        Share a draft
      </h3>
      {postId ? (
        <LiveLinks postId={postId} ids={ids} />
      ) : (
        <p className="text-sm text-neutral-700">Save the post first to share it.</p>
      )}
    </section>
  );
}

/** The post's live share links, loaded when it opens and again on `reload`. */
function useLiveLinkList(postId: string) {
  const [links, setLinks] = useState<ShareLinkItem[] | undefined>();
  const [loadError, setLoadError] = useState<string>();

  const showLinks = useCallback((list: ShareLinkItem[]) => {
    setLinks(list);
    setLoadError(undefined);
  }, []);
  const showLoadError = useCallback((failure: unknown) => {
    setLoadError(`Could not load the share links: ${(failure as Error).message}`);
  }, []);
  const reload = () => fetchLinks(postId).then(showLinks, showLoadError);

  useEffect(() => {
    const controller = new AbortController();
    fetchLinks(postId, controller.signal).then(showLinks, (failure: unknown) => {
      if (!controller.signal.aborted) showLoadError(failure);
    });
    return () => controller.abort();
  }, [postId, showLinks, showLoadError]);
  return { links, loadError, reload };
}

function LiveLinks({ postId, ids }: { postId: string; ids: string }) {
  const { links, loadError, reload } = useLiveLinkList(postId);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedShareLink>();
  const [status, setStatus] = useState("");
  const urlInput = useRef<HTMLInputElement>(null);

  async function create() {
    setBusy(true);
    setError(undefined);
    setStatus("");
    try {
      const response = await fetch(linksUrl(postId), { method: "POST", credentials: "include" });
      if (!response.ok) throw new Error(await errorOf(response));
      const link = (await response.json()) as CreatedShareLink;
      setCreated(link);
      setStatus("Share link created. Copy it now: it is shown only once.");
      await reload();
    } catch (failure) {
      setError(`Could not create a share link: ${(failure as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.url);
      setStatus("Link copied.");
    } catch {
      urlInput.current?.select();
      setStatus("Could not copy by itself: the link is selected, press Control or Command plus C.");
    }
  }

  async function revoke(link: ShareLinkItem) {
    setBusy(true);
    setError(undefined);
    setStatus("");
    try {
      const response = await fetch(`${linksUrl(postId)}/${encodeURIComponent(link.id)}`, {
        method: "DELETE",
        credentials: "include",
      });
      // 404: it had expired or was revoked elsewhere; either way it is gone.
      if (!response.ok && response.status !== 404) throw new Error(await errorOf(response));
      if (created?.id === link.id) setCreated(undefined);
      setStatus(`Link revoked: it no longer opens the post.`);
      await reload();
    } catch (failure) {
      setError(`Could not revoke the link: ${(failure as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  const full = links !== undefined && links.length >= MAX_LIVE_SHARE_LINKS;
  return (
    <>
      <p id={`${ids}-hint`} className="text-sm text-neutral-700">
        Anyone with a share link can read this post as last saved, even before it is public. Search engines are asked to
        skip it. A link works for {SHARE_LINK_DAYS} days or until you revoke it; at most {MAX_LIVE_SHARE_LINKS} at a
        time.
      </p>
      <div>
        <button
          type="button"
          onClick={() => void create()}
          disabled={busy || full}
          aria-describedby={`${ids}-hint`}
          className={buttonClass}
        >
          Create a share link
        </button>
      </div>
      {created && (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${ids}-url`} className="text-sm font-semibold text-neutral-800">
            New share link
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              ref={urlInput}
              id={`${ids}-url`}
              readOnly
              value={created.url}
              onFocus={(event) => event.currentTarget.select()}
              className="w-full min-w-0 rounded-md border border-neutral-400 bg-neutral-50 px-3 py-2 font-mono text-sm text-neutral-900"
            />
            <button type="button" onClick={() => void copy()} className={`${buttonClass} shrink-0`}>
              Copy link
            </button>
          </div>
          <p className="text-sm text-neutral-700">Expires {when(created.expiresAt)}. It is shown only this once.</p>
        </div>
      )}
      <div aria-live="polite" className="text-sm font-medium text-brand-800">
        {status && <p>{status}</p>}
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <h4 className="text-sm font-semibold text-neutral-800">Live links</h4>
      {loadError ? (
        <p role="alert" className="text-sm text-red-800">
          {loadError}
        </p>
      ) : links === undefined ? (
        <p className="text-sm text-neutral-700">Loading share links...</p>
      ) : links.length === 0 ? (
        <p className="text-sm text-neutral-700">No live share links.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-neutral-200 rounded-md border border-neutral-200">
          {links.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2 text-sm">
              <span className="mr-auto">
                Expires {when(link.expiresAt)}
                <span className="block text-neutral-700">
                  Made {when(link.createdAt)} by {link.createdBy}
                </span>
              </span>
              <button
                type="button"
                onClick={() => void revoke(link)}
                disabled={busy}
                aria-label={`Revoke the link that expires ${when(link.expiresAt)}`}
                className={buttonClass}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {full && (
        <p className="text-sm text-neutral-700">
          This post has {MAX_LIVE_SHARE_LINKS} live links: revoke one to make another.
        </p>
      )}
    </>
  );
}
