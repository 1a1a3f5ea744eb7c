import { useCallback, useEffect, useId, useRef, useState } from "react";
import { SHARE_LINK_COMMON as text, type ShareLinkTexts } from "~/content/share-links";
import { MAX_LIVE_SHARE_LINKS, type CreatedShareLink, type ShareLinkItem } from "~/lib/share-links";
import type { ShareLinksOf } from "./document-kind";

/**
 * The editors' "Share a draft" section (ADR 044, ADR 053): make a secret link
 * that shows a post as last saved, or a page with its draft, to someone
 * without an account; copy it (it is shown once); see the live links and
 * revoke any of them. Talks to the links' API the document's kind names
 * (/api/admin/posts/{id}/preview-links, /api/admin/content/{name}/share-links;
 * ADR 065); `beforeCreate` keeps the draft first (the Pages editor).
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

async function fetchLinks(linksUrl: string, signal?: AbortSignal): Promise<ShareLinkItem[]> {
  const response = await fetch(linksUrl, {
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

interface ShareLinksProps {
  links: ShareLinksOf;
  /** The section's heading level in its screen (its list's heading is one below). */
  level?: 2 | 3;
}

export function ShareLinks({ links, level = 3 }: ShareLinksProps) {
  const ids = useId();
  const { url: linksUrl, texts, beforeCreate } = links;
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section
      aria-labelledby={`${ids}-heading`}
      className="mt-8 flex flex-col gap-3 rounded-md border border-neutral-300 p-4"
    >
      <Heading
        id={`${ids}-heading`}
        className={level === 2 ? "text-xl font-semibold" : "font-semibold text-neutral-800"}
      >
        {text.heading}
      </Heading>
      {linksUrl ? (
        <LiveLinks linksUrl={linksUrl} ids={ids} texts={texts} beforeCreate={beforeCreate} level={level} />
      ) : (
        <p className="text-sm text-neutral-700">{texts.notYet}</p>
      )}
    </section>
  );
}

/** The live share links, loaded when the section opens and again on `reload`. */
function useLiveLinkList(linksUrl: string) {
  const [links, setLinks] = useState<ShareLinkItem[] | undefined>();
  const [loadError, setLoadError] = useState<string>();

  const showLinks = useCallback((list: ShareLinkItem[]) => {
    setLinks(list);
    setLoadError(undefined);
  }, []);
  const showLoadError = useCallback((failure: unknown) => {
    setLoadError(text.loadFailed((failure as Error).message));
  }, []);
  const reload = () => fetchLinks(linksUrl).then(showLinks, showLoadError);

  useEffect(() => {
    const controller = new AbortController();
    fetchLinks(linksUrl, controller.signal).then(showLinks, (failure: unknown) => {
      if (!controller.signal.aborted) showLoadError(failure);
    });
    return () => controller.abort();
  }, [linksUrl, showLinks, showLoadError]);
  return { links, loadError, reload };
}

function LiveLinks({
  linksUrl,
  ids,
  texts,
  beforeCreate,
  level,
}: {
  linksUrl: string;
  ids: string;
  texts: ShareLinkTexts;
  beforeCreate?: () => Promise<void>;
  level: 2 | 3;
}) {
  const ListHeading = level === 2 ? "h3" : "h4";
  const { links, loadError, reload } = useLiveLinkList(linksUrl);
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
      await beforeCreate?.();
      const response = await fetch(linksUrl, { method: "POST", credentials: "include" });
      if (!response.ok) throw new Error(await errorOf(response));
      const link = (await response.json()) as CreatedShareLink;
      setCreated(link);
      setStatus(text.created);
      await reload();
    } catch (failure) {
      setError(text.createFailed((failure as Error).message));
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.url);
      setStatus(text.copiedText);
    } catch {
      urlInput.current?.select();
      setStatus(text.copyFailed);
    }
  }

  async function revoke(link: ShareLinkItem) {
    setBusy(true);
    setError(undefined);
    setStatus("");
    try {
      const response = await fetch(`${linksUrl}/${encodeURIComponent(link.id)}`, {
        method: "DELETE",
        credentials: "include",
      });
      // 404: it had expired or was revoked elsewhere; either way it is gone.
      if (!response.ok && response.status !== 404) throw new Error(await errorOf(response));
      if (created?.id === link.id) setCreated(undefined);
      setStatus(texts.revoked);
      await reload();
    } catch (failure) {
      setError(text.revokeFailed((failure as Error).message));
    } finally {
      setBusy(false);
    }
  }

  const full = links !== undefined && links.length >= MAX_LIVE_SHARE_LINKS;
  return (
    <>
      <p id={`${ids}-hint`} className="text-sm text-neutral-700">
        {texts.hint}
      </p>
      <div>
        <button
          type="button"
          onClick={() => void create()}
          disabled={busy || full}
          aria-describedby={`${ids}-hint`}
          className={buttonClass}
        >
          {text.create}
        </button>
      </div>
      {created && (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${ids}-url`} className="text-sm font-semibold text-neutral-800">
            {text.newLink}
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
              {text.copy}
            </button>
          </div>
          <p className="text-sm text-neutral-700">{text.expires(when(created.expiresAt))}</p>
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
      <ListHeading className="text-sm font-semibold text-neutral-800">{text.live}</ListHeading>
      {loadError ? (
        <p role="alert" className="text-sm text-red-800">
          {loadError}
        </p>
      ) : links === undefined ? (
        <p className="text-sm text-neutral-700">{text.loading}</p>
      ) : links.length === 0 ? (
        <p className="text-sm text-neutral-700">{text.none}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-neutral-200 rounded-md border border-neutral-200">
          {links.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2 text-sm">
              <span className="mr-auto">
                {text.expiresAt(when(link.expiresAt))}
                <span className="block text-neutral-700">{text.made(when(link.createdAt), link.createdBy)}</span>
              </span>
              <button
                type="button"
                onClick={() => void revoke(link)}
                disabled={busy}
                aria-label={text.revokeLabel(when(link.expiresAt))}
                className={buttonClass}
              >
                {text.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      {full && <p className="text-sm text-neutral-700">{texts.full}</p>}
    </>
  );
}
