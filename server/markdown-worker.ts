/**
 * The markdown pipeline in its own process (app/server/posts/markdown.server.ts):
 * built as build/server/markdown-worker.js beside the server's entry.
 */
import { renderMarkdown } from "~/server/posts/markdown-pipeline.server";

export default function render(markdown: string): string {
  return renderMarkdown(markdown);
}
