import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

/**
 * SIGTERM drains a process without losing a request a proxy is sending it
 * (ADR 033): it stops accepting connections, but an idle keep-alive
 * connection stays open, because the proxy may be writing a request on it at
 * that very moment; a request that comes on it is answered, with
 * `Connection: close`, and then the process exits. (nginx in front:
 * tests/integration/deploy.db.test.ts restarts processes under load.)
 */
describe("SIGTERM with keep-alive connections open", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  /** Reads one whole HTTP/1.1 answer (headers and a Content-Length body) from a socket. */
  function answer(socket: net.Socket): Promise<{ head: string; closed: Promise<void> }> {
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    return new Promise((resolve, reject) => {
      let received = "";
      const onData = (chunk: Buffer) => {
        received += chunk.toString("latin1");
        const end = received.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = received.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length - end - 4 < length) return;
        socket.off("data", onData);
        resolve({ head, closed });
      };
      socket.on("data", onData);
      socket.once("error", reject);
      socket.once("close", () =>
        reject(new Error(`connection closed before a whole answer: ${JSON.stringify(received)}`)),
      );
    });
  }

  it("answers a request on an idle connection with Connection: close, refuses new connections, then exits", async () => {
    server = await startServer();
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

    socket.write(request);
    const first = await answer(socket);
    expect(first.head).toMatch(/^HTTP\/1\.1 200/);
    expect(first.head).toMatch(/connection: keep-alive/i);

    // The connection is idle now. SIGTERM, and give the process time to act on it.
    process.kill(server.pid, "SIGTERM");
    await sleep(300);
    const refused = await new Promise<string>((resolve) => {
      const other = net.connect(Number(port), "127.0.0.1");
      other.once("connect", () => {
        other.destroy();
        resolve("connected");
      });
      other.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");

    // The idle connection was left open: a request on it is answered, and the connection then ends.
    expect(socket.destroyed).toBe(false);
    socket.write(request);
    const second = await answer(socket);
    expect(second.head).toMatch(/^HTTP\/1\.1 200/);
    expect(second.head).toMatch(/connection: close/i);
    await second.closed;

    await server.kill("SIGTERM");
    expect(server.logs.some((line) => line.msg === "stopped")).toBe(true);
    expect(server.stderr()).toBe("");
  });
});
