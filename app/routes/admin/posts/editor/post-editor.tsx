import { useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { PostImage } from "~/components/site/post-image";
import { formatDate } from "~/lib/dates";
import { ACCEPTED_IMAGE_TYPES, MAX_IMAGE_BYTES } from "~/lib/images";
import { MAX_IMAGE_ALT, MAX_META_DESCRIPTION, MAX_META_TITLE } from "~/lib/post-rules";
import { slugify } from "~/lib/slug";
import { ApiFailure, renderPreview, uploadImage } from "../admin-api";
import { AutosaveNotice } from "./autosave-notice";
import { RevisionsPanel } from "./revisions-panel";
import { fromLocalInputValue, type PostDraft, toLocalInputValue } from "../post-draft";
import { ShareLinks } from "./share-links";

const inputClass =
  "w-full rounded-md border border-neutral-400 bg-white px-3 py-2 text-base text-neutral-900 focus:border-brand-600";
const labelClass = "text-sm font-semibold text-neutral-800";
const hintClass = "text-sm text-neutral-700";
const PREVIEW_DELAY_MS = 300;

function Required() {
  return (
    // aria-required on the field tells assistive technology; the star is for the eye.
    <span aria-hidden="true" className="font-normal text-red-800">
      {" *"}
    </span>
  );
}

/** Server-rendered HTML of the markdown, refreshed a moment after typing stops. */
function usePreviewHtml(content: string) {
  // The answer and the text it answers: the preview is pending while that text is not the current one.
  const [result, setResult] = useState<{ html: string; error?: string; content?: string }>({ html: "" });
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      renderPreview(content, controller.signal).then(
        (html) => setResult({ html, content }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const detail = error instanceof ApiFailure ? error.detail : "the server could not be reached";
          setResult((r) => ({ ...r, content, error: `The preview could not be updated: ${detail}` }));
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content]);
  return { html: result.html, error: result.error, pending: result.content !== content };
}

/**
 * Whether an ISO date is still ahead. Read afresh at each render, like the
 * clock, and the component renders again when the date passes.
 */
function useIsFuture(iso: string): boolean {
  const time = Date.parse(iso);
  const subscribe = useCallback(
    (onChange: () => void) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        const wait = time - Date.now();
        if (!(wait >= 0)) return onChange();
        // setTimeout waits at most 2^31 - 1 ms; a later date arms it again.
        timer = setTimeout(arm, Math.min(wait + 1, 2 ** 31 - 1));
      };
      arm();
      return () => clearTimeout(timer);
    },
    [time],
  );
  const isFuture = () => time > Date.now();
  return useSyncExternalStore(subscribe, isFuture, isFuture);
}

/** The post as the public article shows it, with the body from the public pipeline. */
function PostPreview({ draft }: { draft: PostDraft }) {
  const preview = usePreviewHtml(draft.content);
  return (
    <article aria-busy={preview.pending} className="min-w-0">
      {draft.headerImage && (
        <PostImage
          src={draft.headerImage}
          sizes="(min-width: 1024px) 40vw, 100vw"
          className="mb-6 aspect-[16/9] w-full rounded-lg object-cover"
        />
      )}
      <p className="text-sm text-neutral-700">
        {draft.category && <span className="font-semibold text-brand-700">{draft.category}</span>}
        {draft.category && " · "}
        {!Number.isNaN(Date.parse(draft.publishDate)) && (
          <time dateTime={draft.publishDate}>{formatDate(draft.publishDate)}</time>
        )}
        {" · "}
        {draft.readTime}
      </p>
      <h3 className="mt-2 text-2xl font-bold leading-tight">
        {draft.title || <span className="text-neutral-600">Untitled post</span>}
      </h3>
      <p className="mt-2 text-neutral-700">By {draft.author}</p>
      {preview.error && (
        <p
          role="alert"
          className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {preview.error}
        </p>
      )}
      {preview.pending && !preview.html ? (
        <p className="mt-6 text-neutral-700">Rendering preview...</p>
      ) : (
        // Sanitised by the same pipeline the public article uses.
        <div className="prose-article mt-6" dangerouslySetInnerHTML={{ __html: preview.html }} />
      )}
    </article>
  );
}

function HeaderImageField({
  value,
  onChange,
  onUploadingChange,
}: {
  value: string | null;
  onChange: (url: string | null) => void;
  onUploadingChange: (uploading: boolean) => void;
}) {
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  async function choose(file: File | undefined) {
    setError(undefined);
    if (!file) return;
    const fail = (message: string, cause?: unknown) => {
      console.error("Failed to upload image", cause ?? message);
      setError(`Failed to upload image: ${message}`);
    };
    try {
      // Cheap checks first; the server checks the content itself.
      if (file.type && !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) {
        return fail("choose a JPEG, PNG, WebP, GIF or AVIF image.");
      }
      if (file.size > MAX_IMAGE_BYTES) {
        return fail(`the file is ${(file.size / 1024 / 1024).toFixed(1)} MB; at most 10 MB are accepted.`);
      }
      setUploading(true);
      onUploadingChange(true);
      onChange(await uploadImage(file));
    } catch (cause) {
      fail(cause instanceof ApiFailure ? cause.detail : "the server could not be reached. Try again.", cause);
    } finally {
      setUploading(false);
      onUploadingChange(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className={labelClass}>
        Header Image
      </label>
      {value && (
        <div className="flex flex-wrap items-center gap-3">
          <PostImage
            src={value}
            sizes="160px"
            alt="Current header image"
            className="h-20 w-36 rounded-md border border-neutral-200 object-cover"
          />
          <button
            type="button"
            onClick={() => onChange(null)}
            className="rounded-md border border-neutral-400 px-3 py-1.5 text-sm font-medium hover:bg-neutral-100"
          >
            Remove image
          </button>
        </div>
      )}
      <input
        ref={input}
        id={id}
        type="file"
        accept={ACCEPTED_IMAGE_TYPES.join(",")}
        disabled={uploading}
        aria-describedby={`${id}-hint ${id}-status`}
        onChange={(event) => void choose(event.currentTarget.files?.[0])}
        className="block w-full text-sm text-neutral-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:font-medium file:text-white hover:file:bg-brand-800"
      />
      <p id={`${id}-hint`} className={hintClass}>
        JPEG, PNG, WebP, GIF or AVIF, up to 10 MB. {value ? "Choosing a file replaces the current image." : ""}
      </p>
      <div id={`${id}-status`} aria-live="polite">
        {uploading && <p className="text-sm font-medium text-brand-800">Uploading image...</p>}
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** "42 of about 60 characters shown", counted as search engines count them (code points). */
function CharacterCount({ value, shown }: { value: string | null; shown: number }) {
  const length = [...(value ?? "")].length;
  if (length === 0) return null;
  return (
    <span className={length > shown ? "font-medium text-amber-800" : undefined}>
      {length} characters{length > shown ? `: past about ${shown}, search results cut it short.` : "."}
    </span>
  );
}

export type EditorMode = "edit" | "preview";

/**
 * The post editor (docs/product/interface.md#editor): every post field, the Preview/Edit toggle, a close
 * button, a side preview panel and Save ('Saving...' while pending). Saving
 * and closing are the parent's: it owns the draft and the alerts.
 */
export function PostEditor({
  draft,
  savedSlug,
  saving,
  error,
  onChange,
  onSave,
  onClose,
  onUploadingChange,
  uploading,
  baseUpdatedAt,
  owner,
  onRestore,
}: {
  draft: PostDraft;
  /** The stored post's updatedAt as opened (existing posts): autosave and conflicts (ADR 043). */
  baseUpdatedAt?: string;
  /** The signed-in administrator's e-mail: whose unsaved drafts this browser keeps (ADR 043). */
  owner: string;
  /** Puts an unsaved draft back in the form, with the version it was made from. */
  onRestore: (draft: PostDraft, base?: string) => void;
  /** The slug as last saved (existing posts), to warn before changing a public address. */
  savedSlug?: string;
  saving: boolean;
  /** Why the last save failed, in plain words. */
  error?: string;
  onChange: (draft: PostDraft) => void;
  onSave: () => void;
  onClose: () => void;
  onUploadingChange: (uploading: boolean) => void;
  uploading: boolean;
}) {
  const ids = useId();
  const field = (name: string) => `${ids}-${name}`;
  const [mode, setMode] = useState<EditorMode>("edit");
  // The slug follows the title until edited by hand (docs/product/interface.md#editor); an existing
  // post whose slug differs from its title's counts as edited by hand.
  const [slugEdited, setSlugEdited] = useState(() => draft.slug !== "" && draft.slug !== slugify(draft.title));
  const titleInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    titleInput.current?.focus();
  }, []);

  const set = <K extends keyof PostDraft>(key: K, value: PostDraft[K]) => onChange({ ...draft, [key]: value });
  const heading = draft.id ? "Edit Post" : "New Post";
  const scheduled = useIsFuture(draft.publishDate);

  return (
    <section aria-labelledby={field("heading")}>
      {/* Sticky, so Save stays at hand however far down the form is. */}
      <div className="sticky top-0 z-10 -mx-4 -mt-4 flex flex-wrap items-center gap-3 border-b border-neutral-200 bg-white px-4 py-3 sm:-mx-6 sm:-mt-6 sm:rounded-t-lg sm:px-6">
        <h2 id={field("heading")} className="w-full text-2xl font-bold sm:mr-auto sm:w-auto">
          {heading}
        </h2>
        <button
          type="button"
          aria-pressed={mode === "preview"}
          onClick={() => setMode(mode === "edit" ? "preview" : "edit")}
          className="rounded-md border border-neutral-400 bg-white px-4 py-2 font-medium hover:bg-neutral-100"
        >
          {mode === "edit" ? "Preview" : "Edit"}
        </button>
        <button
          type="button"
          onClick={onSave}
          disabled={saving || uploading}
          aria-describedby={field("shortcut")}
          className="rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {saving ? "Saving..." : "Save"}
        </button>
        <span id={field("shortcut")} className="sr-only">
          Shortcut: Control or Command plus S
        </span>
        <button
          type="button"
          aria-label="Close"
          title="Close without saving"
          onClick={onClose}
          className="ml-auto inline-flex sm:ml-0 h-10 w-10 items-center justify-center rounded-md border border-neutral-400 bg-white hover:bg-neutral-100"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
            <path d="M5.3 4.2a.75.75 0 0 0-1.1 1.1L8.9 10l-4.7 4.7a.75.75 0 1 0 1.1 1.1l4.7-4.7 4.7 4.7a.75.75 0 1 0 1.1-1.1L11.1 10l4.7-4.7a.75.75 0 0 0-1.1-1.1L10 8.9 5.3 4.2Z" />
          </svg>
        </button>
      </div>

      {error && (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      {uploading && (
        <p className="mt-4 text-sm text-neutral-700">Save is available when the image has finished uploading.</p>
      )}
      <AutosaveNotice draft={draft} baseUpdatedAt={baseUpdatedAt} owner={owner} onRestore={onRestore} />

      <div className="mt-6 grid gap-8 lg:grid-cols-2">
        <form
          id={field("form")}
          noValidate
          hidden={mode === "preview"}
          onSubmit={(event) => {
            event.preventDefault();
            onSave();
          }}
          className="flex flex-col gap-5"
        >
          <p className={hintClass}>Fields marked * are required.</p>
          <div className="flex flex-col gap-1">
            <label htmlFor={field("title")} className={labelClass}>
              Title
              <Required />
            </label>
            <input
              ref={titleInput}
              id={field("title")}
              className={inputClass}
              value={draft.title}
              aria-required="true"
              onChange={(e) => {
                const title = e.target.value;
                onChange({ ...draft, title, slug: slugEdited ? draft.slug : slugify(title) });
              }}
            />
          </div>

          <div className="flex flex-col gap-1">
            <label htmlFor={field("slug")} className={labelClass}>
              Slug
              <Required />
            </label>
            <input
              id={field("slug")}
              className={`${inputClass} font-mono text-sm`}
              value={draft.slug}
              aria-required="true"
              aria-describedby={field("slug-hint")}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              onChange={(e) => {
                setSlugEdited(true);
                set("slug", e.target.value);
              }}
            />
            <p id={field("slug-hint")} className={hintClass}>
              The article's address: /blog/{draft.slug || "..."}.{" "}
              {slugEdited ? (
                <button
                  type="button"
                  className="font-medium text-brand-700 underline underline-offset-2"
                  onClick={() => {
                    setSlugEdited(false);
                    set("slug", slugify(draft.title));
                  }}
                >
                  Make it follow the title again
                </button>
              ) : (
                "It follows the title until you edit it."
              )}
              {savedSlug && draft.slug !== savedSlug && (
                <span className="mt-1 block text-amber-900">
                  Changing the slug changes the address; links to /blog/{savedSlug} will stop working.
                </span>
              )}
            </p>
          </div>

          <div className="flex flex-col gap-1">
            <label htmlFor={field("excerpt")} className={labelClass}>
              Excerpt
              <Required />
            </label>
            <textarea
              id={field("excerpt")}
              rows={3}
              className={inputClass}
              value={draft.excerpt}
              aria-required="true"
              onChange={(e) => set("excerpt", e.target.value)}
            />
          </div>

          <div className="grid gap-5 sm:grid-cols-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={field("category")} className={labelClass}>
                Category
              </label>
              <input
                id={field("category")}
                className={inputClass}
                value={draft.category}
                onChange={(e) => set("category", e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={field("read-time")} className={labelClass}>
                Read Time
              </label>
              <input
                id={field("read-time")}
                className={inputClass}
                value={draft.readTime}
                onChange={(e) => set("readTime", e.target.value)}
              />
            </div>
          </div>

          <HeaderImageField
            value={draft.headerImage}
            onChange={(url) => set("headerImage", url)}
            onUploadingChange={onUploadingChange}
          />
          {draft.headerImage && (
            <div className="flex flex-col gap-1">
              <label htmlFor={field("image-alt")} className={labelClass}>
                Image description (alt text)
                <Required />
              </label>
              <input
                id={field("image-alt")}
                name="headerImageAlt"
                className={inputClass}
                value={draft.headerImageAlt ?? ""}
                maxLength={MAX_IMAGE_ALT}
                aria-required="true"
                aria-describedby={field("image-alt-hint")}
                onChange={(e) => set("headerImageAlt", e.target.value)}
              />
              <p id={field("image-alt-hint")} className={hintClass}>
                What the image shows, for people who cannot see it and for search engines.
              </p>
            </div>
          )}

          <div className="grid items-end gap-5 sm:grid-cols-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={field("publish-date")} className={labelClass}>
                Publish Date
              </label>
              <input
                id={field("publish-date")}
                type="datetime-local"
                className={inputClass}
                value={toLocalInputValue(draft.publishDate)}
                aria-describedby={field("publish-hint")}
                onChange={(e) => set("publishDate", fromLocalInputValue(e.target.value) ?? "")}
              />
            </div>
            <div className="flex items-center gap-2 pb-2">
              <input
                id={field("published")}
                type="checkbox"
                className="h-5 w-5 accent-brand-700"
                checked={draft.published}
                onChange={(e) => set("published", e.target.checked)}
              />
              <label htmlFor={field("published")} className="font-semibold text-neutral-800">
                Published
              </label>
            </div>
          </div>
          <p id={field("publish-hint")} className={`${hintClass} -mt-3`}>
            {draft.published
              ? scheduled
                ? "Scheduled: visitors see it from the publish date on."
                : "Visitors see it once saved."
              : "Draft: only administrators see it."}{" "}
            Times are in your time zone.
          </p>

          <div className="flex flex-col gap-1">
            <label htmlFor={field("content")} className={labelClass}>
              Content (Markdown)
              <Required />
            </label>
            <textarea
              id={field("content")}
              rows={15}
              className={`${inputClass} font-mono text-sm leading-relaxed`}
              value={draft.content}
              aria-required="true"
              aria-describedby={field("content-hint")}
              onChange={(e) => set("content", e.target.value)}
            />
            <p id={field("content-hint")} className={hintClass}>
              Markdown: ## for a heading, **bold**, *italic*, [link](https://...), - for a list, | for tables.
            </p>
          </div>

          <fieldset className="flex flex-col gap-5 rounded-md border border-neutral-300 p-4">
            <legend className="px-1 font-semibold text-neutral-800">Search engines and sharing</legend>
            <div className="flex flex-col gap-1">
              <label htmlFor={field("meta-title")} className={labelClass}>
                Search result headline
              </label>
              <input
                id={field("meta-title")}
                className={inputClass}
                value={draft.metaTitle ?? ""}
                placeholder={draft.title}
                maxLength={MAX_META_TITLE}
                aria-describedby={field("meta-title-hint")}
                onChange={(e) => set("metaTitle", e.target.value)}
              />
              <p id={field("meta-title-hint")} className={hintClass}>
                Shown in search results and share previews instead of the post's own; about 60 characters show. Empty:
                the post's title. <CharacterCount value={draft.metaTitle} shown={60} />
              </p>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={field("meta-description")} className={labelClass}>
                Search result description
              </label>
              <textarea
                id={field("meta-description")}
                rows={2}
                className={inputClass}
                value={draft.metaDescription ?? ""}
                placeholder={draft.excerpt}
                maxLength={MAX_META_DESCRIPTION}
                aria-describedby={field("meta-description-hint")}
                onChange={(e) => set("metaDescription", e.target.value)}
              />
              <p id={field("meta-description-hint")} className={hintClass}>
                The summary under the title in search results; about 160 characters show. Empty: the excerpt.{" "}
                <CharacterCount value={draft.metaDescription} shown={160} />
              </p>
            </div>
            <div className="flex items-start gap-2">
              <input
                id={field("noindex")}
                type="checkbox"
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
                checked={draft.noindex}
                aria-describedby={field("noindex-hint")}
                onChange={(e) => set("noindex", e.target.checked)}
              />
              <div>
                <label htmlFor={field("noindex")} className="font-semibold text-neutral-800">
                  Hide from search engines
                </label>
                <p id={field("noindex-hint")} className={hintClass}>
                  Visitors still find it on the blog; search engines are asked not to list it, and it is left out of the
                  sitemap and the RSS feed.
                </p>
              </div>
            </div>
          </fieldset>
        </form>

        <section
          aria-label="Preview"
          // It scrolls on its own beside the form, so it must be reachable by keyboard.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container, the case the rule's docs exempt (axe: scrollable-region-focusable)
          tabIndex={0}
          className={
            mode === "preview"
              ? "rounded-lg border border-neutral-200 bg-white p-6 shadow-sm lg:col-span-2"
              : "hidden rounded-lg border border-neutral-200 bg-white p-6 shadow-sm lg:sticky lg:top-24 lg:block lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto"
          }
        >
          <p className="mb-4 text-xs font-semibold uppercase tracking-wide text-neutral-700">
            Preview: as visitors will see it
          </p>
          <PostPreview draft={draft} />
        </section>
      </div>
      <ShareLinks postId={draft.id} />
      {draft.id && <RevisionsPanel postId={draft.id} draft={draft} onRestore={onChange} />}
    </section>
  );
}
