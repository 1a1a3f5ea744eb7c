import { PassThrough } from "node:stream";
import type { ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";

interface RenderOptions {
  nonce?: string;
  /** A render that is not whole by then is aborted (what is pending fails). */
  deadlineMs: number;
  /** An error inside the render; the page is still sent, marked failed. */
  onError: (error: unknown) => void;
}

/**
 * Renders `element` completely before the first byte (React's onAllReady)
 * and answers its HTML as a stream, with whether any part of it failed.
 *
 * The deadline's timer is cleared the moment the render is whole: until it
 * fires it keeps the whole render (tree, loader data, request) alive, and
 * under load that was thousands of renders at once (issue 15).
 */
export function renderWhole(
  element: ReactNode,
  { nonce, deadlineMs, onError }: RenderOptions,
): Promise<{ body: PassThrough; failed: boolean }> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const settle = () => {
      settled = true;
      clearTimeout(deadline);
    };
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onAllReady() {
        settle();
        const body = new PassThrough();
        resolve({ body, failed });
        pipe(body);
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
