import { Writable } from "node:stream";
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
