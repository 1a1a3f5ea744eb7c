/**
 * The markdown pipeline in its own process (app/server/posts/markdown.server.ts):
 * built as build/server/markdown-worker.js beside the server's entry.
 */
import type { ImageSizes } from "~/server/posts/body-images.server";
import { renderMarkdown } from "~/server/posts/markdown-pipeline.server";

export default function render({ markdown, images }: { markdown: string; images: ImageSizes }): string {
  return renderMarkdown(markdown, images);
}
