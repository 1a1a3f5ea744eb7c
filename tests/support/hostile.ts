import http from "node:http";
import type { TestServer } from "./server";

/**
 * Sends a body of `totalBytes` in 64 KiB chunks with no Content-Length
 * (Transfer-Encoding: chunked) and stops writing as soon as an answer comes.
 * Returns the status (or the socket error when none came) and how much was
 * written before the answer. With `keepSending` (ms) it goes on writing after
 * the answer, for that long at most, and tells whether the server cut it off.
 */
export function sendChunked(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  totalBytes: number,
  fill = "a",
  { keepSending = 0 }: { keepSending?: number } = {},
): Promise<{ status: number | string; written: number; connection?: string; cutOff?: boolean }> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  return new Promise((resolve) => {
    let written = 0;
    let status: number | undefined;
    let stopAt = Infinity;
    const request = http.request(`${baseUrl}${path}`, { method, headers: { ...headers, "Transfer-Encoding": "chunked" } });
    let connection: string | undefined;
    request.on("response", (response) => {
      status = response.statusCode ?? 0;
      connection = response.headers.connection;
      stopAt = Date.now() + keepSending;
      response.resume();
      response.on("end", () => {
        if (!keepSending) resolve({ status: status!, written, connection });
      });
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (status === undefined) resolve({ status: error.code ?? "error", written });
    });
    // The server closed the connection while the client still had more to send.
    request.on("close", () => {
      if (status !== undefined && keepSending) resolve({ status, written, cutOff: Date.now() < stopAt });
    });
    const pump = () => {
      while (Date.now() < stopAt && written < totalBytes && !request.destroyed) {
        written += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (status !== undefined && keepSending && !request.destroyed) request.destroy();
      else if (status === undefined) request.end();
    };
    pump();
  });
}

/** Log lines "event loop blocked" the server printed from index `from` on. */
export function eventLoopStalls(server: TestServer, from: number) {
  return server.logs.slice(from).filter((line) => line.msg === "event loop blocked");
}

/** Waits past one tick of the server's event-loop watch (1 s), so every stall so far is logged. */
export const settleEventLoopWatch = () => new Promise((resolve) => setTimeout(resolve, 1300));
