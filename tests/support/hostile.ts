import fs from "node:fs";
import http from "node:http";
import { expect } from "vitest";
import { ApiClient, startServer, type TestServer } from "./server";

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
    const request = http.request(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, "Transfer-Encoding": "chunked" },
    });
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
    // One chunk per turn of the event loop: the answer is seen as soon as it
    // arrives. (Writing in a loop until the socket is full never yields while
    // the server drains a refused body as fast as it comes, and so could send
    // the whole body before noticing a 413 that came early.)
    const pump = () => {
      if (Date.now() < stopAt && written < totalBytes && !request.destroyed) {
        written += chunk.length;
        if (request.write(chunk)) setImmediate(pump);
        else request.once("drain", pump);
        return;
      }
      if (status !== undefined && keepSending && !request.destroyed) request.destroy();
      else if (status === undefined) request.end();
    };
    pump();
  });
}

/**
 * The most the kernel's socket buffers of one loopback connection can hold:
 * its largest TCP receive buffer plus its largest send buffer (Linux tunes a
 * connection's buffers up to these; here the receive side goes to 32 MB). A
 * client can have written that much beyond what the server has read.
 */
export function socketBufferBytes(): number {
  const largest = (file: string) => Number(fs.readFileSync(file, "utf8").trim().split(/\s+/)[2]);
  try {
    return largest("/proc/sys/net/ipv4/tcp_rmem") + largest("/proc/sys/net/ipv4/tcp_wmem");
  } catch {
    return 8 * 1024 * 1024;
  }
}

/** Log lines "event loop blocked" the server printed from index `from` on. */
function eventLoopStalls(server: TestServer, from: number) {
  return server.logs.slice(from).filter((line) => line.msg === "event loop blocked");
}

/** Waits a moment, so a stall that has just ended is logged (the watch ticks every 10 ms). */
const settleEventLoopWatch = () => new Promise((resolve) => setTimeout(resolve, 200));

/** A server for the hostile-input tests: signed-in admin, one post and one message to aim at, the event loop watched. */
export interface WatchedServer {
  server: TestServer;
  admin: ApiClient;
  postId: string;
  messageId: string;
  /** Stops the server, then fails the test file if any request since the start held the event loop past its budget. */
  stopExpectingNoStalls(): Promise<void>;
}

/**
 * Starts a server on the backend under test with a post (slug `kept`) and a
 * contact message, warms every kind of answer once (a first render may take
 * longer), then watches the event loop from there on.
 */
export async function startWatchedServer(): Promise<WatchedServer> {
  const server = await startServer();
  const admin = new ApiClient(server.url);
  await admin.signIn();
  const post = await admin.post("/api/admin/posts", {
    title: "Kept",
    slug: "kept",
    excerpt: "e",
    content: "Body",
    published: true,
  });
  await new ApiClient(server.url).post(
    "/api/contact",
    { name: "Ada", email: "ada@example.com", message: "Hello", preferredContact: "email", service: "media" },
    { "X-Forwarded-For": "203.0.113.200" },
  );
  const messageId = (await admin.get("/api/admin/messages")).json[0].id as string;
  await Promise.all(["/", "/blog", "/blog/kept", "/admin/login", "/admin"].map((path) => admin.get(path)));
  await settleEventLoopWatch();
  const logsBefore = server.logs.length;
  return {
    server,
    admin,
    postId: post.json.id as string,
    messageId,
    async stopExpectingNoStalls() {
      await settleEventLoopWatch();
      const stalls = eventLoopStalls(server, logsBefore);
      // Where a stall came from: the requests logged around it.
      if (stalls.length > 0)
        console.error(
          server.logs
            .slice(logsBefore)
            .map((line) => JSON.stringify(line))
            .join("\n"),
        );
      await server.stop();
      expect(stalls).toEqual([]);
    },
  };
}
