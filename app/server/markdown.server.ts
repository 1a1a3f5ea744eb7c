import Piscina from "piscina";

/**
 * Markdown is rendered at save and for the admin preview (ADR 004), and some
 * input makes the parser slow: 200 KB of ordinary text takes about a second,
 * 200 KB of nested brackets well over a minute. So it runs in one worker
 * thread (piscina), never on the event loop that answers every visitor, with
 * a deadline after which the worker is stopped and the editor is told.
 */
export const MARKDOWN_DEADLINE_MS = 5_000;

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
let pool: Piscina | undefined;

/**
 * Turns the worker on: `file` is build/server/markdown-worker.js, which the
 * built entry points name (server/main.ts, server/cli.ts). Without it (the
 * development server, in-process tests) the same pipeline runs in-thread.
 */
export function enableMarkdownWorker(file: string): void {
  workerFile = file;
}

/** Markdown to sanitised HTML, off the event loop; MarkdownRenderError when it cannot be rendered in time. */
export async function renderMarkdownSafely(markdown: string): Promise<string> {
  if (!workerFile) {
    try {
      // Loaded only here: where the worker runs it (production), the pipeline's
      // modules stay out of the main thread's heap.
      const { renderMarkdown } = await import("./markdown-pipeline.server");
      return renderMarkdown(markdown);
    } catch {
      throw new MarkdownRenderError("content could not be rendered: simplify its markdown");
    }
  }
  pool ??= new Piscina({
    filename: workerFile,
    // One thread, started when needed and stopped soon after: saves are
    // rare, and its memory (about 60 MB while it lives) counts against the
    // process's 200 MB.
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 5_000,
    maxQueue: 64,
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
  });
  try {
    return (await pool.run(markdown, { signal: AbortSignal.timeout(MARKDOWN_DEADLINE_MS) })) as string;
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError") {
      throw new MarkdownRenderError(
        `content takes too long to render (over ${MARKDOWN_DEADLINE_MS / 1000} s): simplify its markdown or split the post`,
      );
    }
    if (error instanceof Error && error.message === "Task queue is at limit") {
      throw new MarkdownRenderError("The server is busy rendering other posts: try again in a moment", 503);
    }
    throw new MarkdownRenderError("content could not be rendered: simplify its markdown or split the post");
  }
}

/** Stops the worker (shutdown). */
export async function closeMarkdownWorker(): Promise<void> {
  await pool?.destroy();
  pool = undefined;
}
