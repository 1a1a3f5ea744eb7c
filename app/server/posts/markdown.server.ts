import { BoundedWork } from "../platform/bounded-work.server";
import { WorkerProcess, WorkerStartError } from "../platform/worker-process.server";
import type { ImageSizes } from "./body-images.server";
import type { MarkdownReferences } from "./markdown-references.server";

/**
 * Markdown is rendered at save and for the admin preview (ADR 004), and some
 * input makes the parser slow: 200 KB of ordinary text takes about a second,
 * 200 KB of nested brackets well over a minute. So it runs in one child
 * process (tinypool's child_process runtime), never on the event loop that
 * answers every visitor, with a deadline after which the process is killed
 * and the editor is told.
 *
 * A process rather than a worker thread (ADR 039): a thread's isolate, the
 * pipeline's modules and the garbage of a burst of saves (about 40 MB) were
 * counted in the web process's 200 MB; in its own process they are not, the
 * renderer has its own cap, and the web process cannot be taken down by it.
 * The deadline counts the render alone, not the process's start
 * (platform/worker-process.server.ts).
 */
const MARKDOWN_DEADLINE_MS = 5_000;

/** Saves and previews rendering or waiting for the renderer; past this a save is answered 503. */
const RENDER_QUEUE = 64;

/** The renderer process's V8 heap cap (its RSS stays around twice this at most). */
const RENDERER_HEAP_MB = 64;

/** Content that cannot be rendered in time (400), or a queue of renders already full (503). */
export class MarkdownRenderError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 503 = 400,
  ) {
    super(message);
  }
}

let workerFile: string | undefined;
let renderer: WorkerProcess | undefined;

/**
 * Renders waiting for the renderer, at most RENDER_QUEUE (then a 503). The
 * renderer runs them one at a time and each deadline counts its own render
 * (WorkerProcess), so a post that waited behind others is not refused for
 * their time.
 */
const renders = new BoundedWork(RENDER_QUEUE, 1);

/**
 * Turns the renderer process on: `file` is build/server/markdown-worker.js, which the
 * built entry points name (server/main.ts, server/cli.ts). Without it (the
 * development server, in-process tests) the same pipeline runs in-thread.
 */
export function enableMarkdownWorker(file: string): void {
  workerFile = file;
}

/**
 * Markdown to sanitised HTML, off the event loop; MarkdownRenderError when it
 * cannot be rendered in time. `images`: the stored size of each upload it
 * names (renderPostBody reads them).
 */
export async function renderMarkdownSafely(markdown: string, images: ImageSizes = {}): Promise<string> {
  return inRenderer(
    { markdown, images },
    // Loaded only here: where the worker runs it (production), the pipeline's
    // modules stay out of the main thread's heap.
    async () => (await import("./markdown-pipeline.server")).renderMarkdown(markdown, images),
  );
}

/**
 * The first `limit` links and images of the markdown and its images without
 * alt text (the check before publishing, ADR 057), parsed in the renderer
 * like a render, with the same queue and deadline.
 */
export async function markdownReferencesSafely(markdown: string, limit: number): Promise<MarkdownReferences> {
  return inRenderer({ references: true, markdown, limit }, async () =>
    (await import("./markdown-references.server")).markdownReferences(markdown, limit),
  );
}

/** Runs a job in the renderer process, or in-thread (`local`) when there is none. */
async function inRenderer<T>(job: object, local: () => Promise<T>): Promise<T> {
  if (!workerFile) {
    try {
      return await local();
    } catch {
      throw new MarkdownRenderError("content could not be rendered: simplify its markdown");
    }
  }
  // One process, started when needed and stopped soon after: saves are
  // rare. Its heap is capped: a post that needs more is refused, as one
  // that takes too long is.
  renderer ??= new WorkerProcess({ file: workerFile, heapMb: RENDERER_HEAP_MB });
  const running = renderer;
  const admission = renders.tryAdmit();
  if (!admission) throw new MarkdownRenderError("The server is busy rendering other posts: try again in a moment", 503);
  try {
    return await admission.run(() => running.run<T>(job, MARKDOWN_DEADLINE_MS));
  } catch (error) {
    if (error instanceof WorkerStartError) {
      throw new MarkdownRenderError("The renderer could not start: try again in a moment", 503);
    }
    if (error instanceof Error && error.name === "AbortError") {
      throw new MarkdownRenderError(
        `content takes too long to render (over ${MARKDOWN_DEADLINE_MS / 1000} s): simplify its markdown or split the post`,
      );
    }
    throw new MarkdownRenderError("content could not be rendered: simplify its markdown or split the post");
  } finally {
    admission.release();
  }
}

/** Stops the renderer process (shutdown). */
export async function closeMarkdownWorker(): Promise<void> {
  await renderer?.close();
  renderer = undefined;
}
