/**
 * The markdown pipeline in its own process (app/server/posts/markdown.server.ts):
 * built as build/server/markdown-worker.js beside the server's entry. It
 * renders a post's body, or (`references`) lists its links and images for
 * the check before publishing (ADR 057). A warm-up is answered at once.
 */
import type { WarmUp } from "~/server/platform/worker-process.server";
import type { ImageSizes } from "~/server/posts/body-images.server";
import { renderMarkdown } from "~/server/posts/markdown-pipeline.server";
import { type MarkdownReferences, markdownReferences } from "~/server/posts/markdown-references.server";

type Job = { markdown: string; images: ImageSizes } | { references: true; markdown: string; limit: number } | WarmUp;

export default function render(job: Job): string | MarkdownReferences {
  if ("warmUp" in job) return "";
  if ("references" in job) return markdownReferences(job.markdown, job.limit);
  return renderMarkdown(job.markdown, job.images);
}
