/** The editor's preview panel: the post as visitors will see it, its body rendered by the server (ADR 015). */
import { useEffect, useState } from "react";
import { PostImage } from "~/components/site/post-image";
import { formatDate } from "~/lib/dates";
import { ApiFailure, renderPreview } from "../admin-api";
import type { PostDraft } from "../post-draft";

const PREVIEW_DELAY_MS = 300;

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

export /** The post as the public article shows it, with the body from the public pipeline. */
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
