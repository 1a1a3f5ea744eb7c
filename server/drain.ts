// How SIGTERM ends the server without losing a request a proxy is sending it
// (ADR 033, 093). Every answer from then on closes its connection, so the
// proxy's connections end one by one, each after a whole answer; an idle one
// is never closed here while the proxy may be writing on it, but left for the
// proxy to close (nginx: within 4 s).
import type http from "node:http";
import net from "node:net";

export interface Drain {
  /** Whether SIGTERM came: each answer then closes its connection. */
  draining(): boolean;
  /**
   * Begins the drain; `done` runs once no connection is left. A second call
   * hurries it: accepting stops and idle connections close at once (whoever
   * sends a second signal knows no proxy will send more).
   */
  begin(done: (error?: Error) => void): void;
}

/**
 * `handOver`: the listening socket is systemd's (ADR 093), so connections not
 * accepted here wait for the next process. This one then keeps accepting
 * until the connections open at the signal have ended (at most
 * `keepAliveTimeoutMs`), so that what waits is only what comes while the
 * next process starts. On a socket of its own it stops accepting at once:
 * the proxy's next connection is refused and goes to another process.
 */
export function drainOnSignal(server: http.Server, handOver: boolean, keepAliveTimeoutMs: number): Drain {
  const open = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  let draining = false;
  let accepting = true;
  let finished: ((error?: Error) => void) | undefined;
  // net.Server's close, not http.Server's: that one also closes every idle
  // keep-alive connection at once, racing a proxy that is sending a request on
  // one. This one stops accepting, and calls back once the open connections
  // have ended: after their next answer, when the proxy closes them, or at
  // the keep-alive timeout.
  const stopAccepting = () => {
    if (!accepting) return;
    accepting = false;
    net.Server.prototype.close.call(server, (error?: Error) => finished?.(error));
  };
  return {
    draining: () => draining,
    begin(done) {
      if (draining) {
        stopAccepting();
        server.closeIdleConnections();
        return;
      }
      draining = true;
      finished = done;
      const before = new Set(open);
      if (!handOver || before.size === 0) return stopAccepting();
      for (const socket of before)
        socket.once("close", () => {
          before.delete(socket);
          if (before.size === 0) stopAccepting();
        });
      setTimeout(stopAccepting, keepAliveTimeoutMs).unref();
    },
  };
}
