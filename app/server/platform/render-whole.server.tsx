import { Writable } from "node:stream";
import type { ReactNode } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";

interface RenderOptions {
  nonce?: string;
  /** A render that is not whole by then is aborted (what is pending fails). */
  deadlineMs: number;
  /** An error inside the render; the page is still sent, marked failed. */
  onError: (error: unknown) => void;
}

/**
 * Renders `element` completely (React's onAllReady) and answers its HTML as
 * one buffer, with whether any part of it failed.
 *
 * One buffer, not a stream: the page is whole before its first byte anyway,
 * and each chunk of a stream cost a trip through the web stream React Router
 * reads, a write and a flush of compression()'s encoder (React Router flushes
 * after every chunk): with brotli, most of a render's time (issue 15).
 *
 * The deadline's timer is cleared the moment the render is whole: until it
 * fires it keeps the whole render (tree, loader data, request) alive, and
 * under load that was thousands of renders at once (issue 15).
 */
export function renderWhole(
  element: ReactNode,
  { nonce, deadlineMs, onError }: RenderOptions,
): Promise<{ html: Buffer<ArrayBuffer>; failed: boolean }> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const settle = () => {
      settled = true;
      clearTimeout(deadline);
    };
    const chunks: Buffer[] = [];
    const collect = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        resolve({ html: Buffer.concat(chunks), failed });
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onAllReady() {
        settle();
        pipe(collect);
      },
      onShellError(error: unknown) {
        settle();
        reject(error instanceof Error ? error : new Error("the page could not be rendered", { cause: error }));
      },
      onError(error: unknown) {
        failed = true;
        onError(error);
      },
    });
    if (!settled) deadline = setTimeout(abort, deadlineMs);
  });
}

/** React's mark of a Suspense boundary left for the browser to render (`<!--$!-->`). */
const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";

/**
 * Renders a page that waits for nothing (its data is loaded, it has no
 * Suspense boundary and streams nothing to a client router) as one string:
 * the public pages, which hydrate as islands (ADR 018, ADR 045). A quarter to
 * a third less CPU than `renderWhole` for the same HTML: React builds a string
 * instead of encoding each chunk into bytes and passing it through a stream.
 *
 * renderToString swallows an error inside a Suspense boundary and leaves the
 * boundary for the browser to render, which an islands page cannot do, so
 * such a page is answered as failed (and an error is logged), as
 * `renderWhole`'s would be.
 */
export function renderStatic(
  element: ReactNode,
  { onError }: Pick<RenderOptions, "onError">,
): { html: Buffer<ArrayBuffer>; failed: boolean } {
  const html = renderToString(element);
  const failed = html.includes(CLIENT_RENDERED_BOUNDARY);
  if (failed) onError(new Error("a part of the page suspended or failed, and was left to the browser"));
  return { html: Buffer.from(`<!DOCTYPE html>${html}`), failed };
}
