import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { drainOnSignal, type Drain } from "./drain";

/** One request on a new connection, answered with its status line and Connection header, or the error's code. */
function ask(port: number, keepAlive = false): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get({ port, host: "127.0.0.1", path: "/", agent: new http.Agent({ keepAlive }) }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve(`${answer.statusCode} ${answer.headers.connection}`));
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
  });
}

describe("drainOnSignal", () => {
  let server: http.Server;
  let drain: Drain;
  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  async function start(handOver: boolean): Promise<number> {
    server = http.createServer((_req, res) => {
      if (drain.draining()) res.setHeader("Connection", "close");
      res.end("ok");
    });
    drain = drainOnSignal(server, handOver, 5_000);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as net.AddressInfo).port;
  }

  /** A keep-alive connection that has had one answer and now sits idle, as a proxy's does. */
  async function idleConnection(port: number): Promise<net.Socket> {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await new Promise((resolve) => socket.once("data", resolve));
    return socket;
  }

  it("on systemd's socket, goes on accepting until the connections open at the signal have ended, then stops", async () => {
    const port = await start(true);
    const idle = await idleConnection(port);
    let ended = false;
    const end = new Promise<void>((resolve) => drain.begin(() => resolve()));
    void end.then(() => (ended = true));
    // Still accepted, and answered once.
    expect(await ask(port, true)).toBe("200 close");
    expect(ended).toBe(false);
    // The proxy closes its idle connection: accepting stops, and with nothing open the drain ends.
    idle.destroy();
    await end;
    expect(await ask(port)).toBe("error ECONNREFUSED");
  });

  it("on a socket of its own, stops accepting at once and leaves the idle connection for the proxy to close", async () => {
    const port = await start(false);
    const idle = await idleConnection(port);
    let ended = false;
    drain.begin(() => (ended = true));
    expect(await ask(port)).toBe("error ECONNREFUSED");
    expect(ended).toBe(false);
    // A request on the idle connection is still answered, and its connection closed after it.
    idle.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    const answer = await new Promise<string>((resolve) =>
      idle.once("data", (chunk: Buffer) => resolve(chunk.toString())),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close/i);
    await new Promise((resolve) => idle.once("close", resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(true);
  });

  it("a second signal stops accepting and closes idle connections at once", async () => {
    const port = await start(true);
    const idle = await idleConnection(port);
    let ended = false;
    drain.begin(() => (ended = true));
    drain.begin(() => {});
    await new Promise((resolve) => idle.once("close", resolve));
    expect(await ask(port)).toBe("error ECONNREFUSED");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(true);
  });
});
