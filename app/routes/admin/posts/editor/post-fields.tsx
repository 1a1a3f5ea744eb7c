/**
 * The editor's form, section by section (docs/product/interface.md#editor):
 * each section gets the draft, a setter for one field and the form's ids.
 */
import { useEffect, useRef, useState } from "react";
import { emailSubscribersText } from "~/content/post-editor";
import { MAX_IMAGE_ALT, MAX_META_DESCRIPTION, MAX_META_TITLE } from "~/lib/post-rules";
import { readingMinutes, readTimeText } from "~/lib/reading-time";
import { slugify } from "~/lib/slug";
import { fromLocalInputValue, type PostDraft, toLocalInputValue } from "../post-draft";
import { CharacterCount, hintClass, inputClass, labelClass, Required } from "./fields";
import { HeaderImageField } from "./header-image-field";
import { useIsFuture } from "./use-is-future";

export interface SectionProps {
  draft: PostDraft;
  /** Changes one field of the draft. */
  set: <K extends keyof PostDraft>(key: K, value: PostDraft[K]) => void;
  /** The form's id for a field's name (labels, hints). */
  field: (name: string) => string;
}

/** Title and slug: the slug follows the title until edited by hand. */
export function TitleAndSlug({
  draft,
  set,
  field,
  onChange,
  savedSlug,
}: SectionProps & {
  onChange: (draft: PostDraft) => void;
  /** The slug as last saved (existing posts), to warn before changing a public address. */
  savedSlug?: string;
}) {
  // The slug follows the title until edited by hand (docs/product/interface.md#editor); an existing
  // post whose slug differs from its title's counts as edited by hand.
  const [slugEdited, setSlugEdited] = useState(() => draft.slug !== "" && draft.slug !== slugify(draft.title));
  const titleInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    titleInput.current?.focus();
  }, []);

  return (
    <>
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
    </>
  );
}

/** Excerpt, category and read time. */
export function SummaryFields({ draft, set, field }: SectionProps) {
  return (
    <>
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
          <ReadTimeFill draft={draft} set={set} />
        </div>
      </div>
    </>
  );
}

/** The header image and, with one, its description. */
export function ImageFields({
  draft,
  set,
  field,
  onUploadingChange,
}: SectionProps & { onUploadingChange: (uploading: boolean) => void }) {
  return (
    <>
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
    </>
  );
}

/** Publish date and the Published box, with what they mean for visitors; and whether subscribers get it by e-mail. */
export function PublishFields({ draft, set, field }: SectionProps) {
  const scheduled = useIsFuture(draft.publishDate);
  return (
    <>
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
      <div className="flex items-start gap-2">
        <input
          id={field("email-subscribers")}
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
          checked={draft.emailSubscribers}
          aria-describedby={field("email-subscribers-hint")}
          onChange={(e) => set("emailSubscribers", e.target.checked)}
        />
        <div>
          <label htmlFor={field("email-subscribers")} className="font-semibold text-neutral-800">
            {emailSubscribersText.label}
          </label>
          <p id={field("email-subscribers-hint")} className={hintClass}>
            {emailSubscribersText.hint}
          </p>
        </div>
      </div>
    </>
  );
}

/** A one-click fill of the read time from the body's words (the field stays free text). */
function ReadTimeFill({ draft, set }: Pick<SectionProps, "draft" | "set">) {
  const suggested = readTimeText(readingMinutes(draft.content));
  if (draft.content.trim() === "" || suggested === draft.readTime.trim()) return null;
  return (
    <button
      type="button"
      onClick={() => set("readTime", suggested)}
      className="self-start rounded text-sm font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900"
    >
      Use &ldquo;{suggested}&rdquo;, from the text
    </button>
  );
}

/** "Search engines and sharing": the per-post SEO fields (ADR 040). */
export function SeoFields({ draft, set, field }: SectionProps) {
  return (
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
          Shown in search results and share previews instead of the post's own; about 60 characters show. Empty: the
          post's title. <CharacterCount value={draft.metaTitle} shown={60} />
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
  );
}
