import net from "node:net";

/**
 * A TCP proxy between the site's processes and PostgreSQL that a test can
 * cut (tests/integration/database-outage.db.test.ts, ADR 075). A cut is a
 * network partition, the hardest outage: nothing is refused or closed, bytes
 * are simply not delivered, both on open connections and on new ones, so
 * only the site's own time-outs end its waits. Healing closes the
 * connections that were open across the cut (as TCP would once its
 * retransmissions gave up) and forwards new ones again.
 *
 * It also counts the queries passing through (the protocol's simple Query
 * and extended Bind messages): a cache hit must add none.
 */
export interface TcpProxy {
  port: number;
  /** Queries sent through the proxy so far. */
  queries(): number;
  /** A partition: nothing delivered, nothing refused. */
  cut(): void;
  /** A restart: every connection closed at once, and new ones too, until healed. */
  refuse(): void;
  heal(): void;
  close(): Promise<void>;
}

/** Counts Query ('Q') and Bind ('B') messages in a client's stream, after its length-prefixed startup message. */
function messageCounter(onQuery: () => void) {
  let buffered = Buffer.alloc(0);
  let started = false;
  return (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (!started) {
        if (buffered.length < 4) return;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return;
        // An SSLRequest (80877103) is followed by the real startup message.
        const code = buffered.readInt32BE(4);
        buffered = buffered.subarray(length);
        if (code !== 80877103) started = true;
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (buffered.length < 1 + length) return;
      const type = String.fromCharCode(buffered[0]!);
      if (type === "Q" || type === "B") onQuery();
      buffered = buffered.subarray(1 + length);
    }
  };
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let queries = 0;
  let cut = false;
  let refusing = false;
  const open = new Set<{ client: net.Socket; upstream?: net.Socket; acrossCut: boolean }>();
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const pair: { client: net.Socket; upstream?: net.Socket; acrossCut: boolean } = { client, acrossCut: cut };
    open.add(pair);
    const count = messageCounter(() => (queries += 1));
    client.on("error", () => {});
    client.on("close", () => {
      pair.upstream?.destroy();
      open.delete(pair);
    });
    // A connection made during a cut is accepted and never answered.
    if (cut) return;
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => client.destroy());
    client.on("data", (data) => {
      if (cut) return;
      count(data);
      upstream.write(data);
    });
    upstream.on("data", (data) => {
      if (!cut) client.write(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    queries: () => queries,
    cut() {
      cut = true;
      for (const pair of open) pair.acrossCut = true;
    },
    refuse() {
      refusing = true;
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
    },
    heal() {
      refusing = false;
      cut = false;
      for (const pair of open) {
        if (!pair.acrossCut) continue;
        pair.client.destroy();
        pair.upstream?.destroy();
      }
    },
    async close() {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
