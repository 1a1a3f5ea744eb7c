import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_BACKEND } from "../../../tests/support/backend";
import { freshPostgres } from "../../../tests/support/database";
import { startTcpProxy } from "../../../tests/support/tcp-proxy";
import { connect, ping } from "./db.server";
import { createListener } from "./listener.server";
import { connectionProbe, QUERY_TIMED_OUT } from "./reachability.server";

/** Holds the event loop for `ms`, as a burst of renders or a pause of the machine does. */
function holdEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * A pg client that holds the event loop for 1.5 s once its query
 * "select 1" is on its way: the answer comes during the hold, and the loop
 * looks at its timers before it reads it.
 */
class HeldAfterSelectOne extends pg.Client {
  override query(...args: unknown[]): never {
    const pending = (super.query as (...a: unknown[]) => unknown)(...args);
    if (args[0] === "select 1") setImmediate(() => holdEventLoop(1500));
    return pending as never;
  }
}

/** A server that accepts TCP connections and never says a word, like a machine that stopped answering. */
async function silentServer(cleanups: Array<() => Promise<void>>): Promise<number> {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
  return (silent.address() as net.AddressInfo).port;
}

/**
 * PostgreSQL going away under a running process (a restart, a failover):
 * the process keeps running and uses new connections once it is back
 * (tests/integration/deploy.db.test.ts restarts a whole cluster under load).
 */
describe.runIf(TEST_BACKEND === "postgres")("PostgreSQL connections that end or never answer", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    // Last made, first undone: the database is dropped after the connections to it are closed.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("a connection ended while a transaction holds it fails that transaction only, and the next query reconnects", async () => {
    const database = await freshPostgres();
    cleanups.push(database.cleanup);
    const connection = connect({ kind: "postgres", url: database.url });
    cleanups.push(() => connection.db.destroy());
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    cleanups.push(() => admin.end());

    await expect(
      connection.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Ended as a server shutdown ends it (57P01), while no query of ours is running: pg
        // reports that as an 'error' event on the client, which used to end the process.
        await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
        await sleep(300);
        await sql`select 1`.execute(trx);
      }),
    ).rejects.toThrow();
    expect(await ping(connection.db)).toBe(true);
  });

  /** A connection to a fresh database whose queries have a deadline of `ms`, undone after the test. */
  async function connectWithDeadline(ms: number) {
    const database = await freshPostgres();
    cleanups.push(database.cleanup);
    const connection = connect({ kind: "postgres", url: database.url }, { queryTimeoutMs: ms });
    cleanups.push(() => connection.db.destroy());
    if (connection.kind !== "postgres") throw new Error("not PostgreSQL");
    return connection;
  }

  it("an answer that came while the process was held past the deadline counts: no time-out, no outage", async () => {
    const connection = await connectWithDeadline(300);
    await sql`select 1`.execute(connection.db);

    // Answered after 100 ms, while the loop is held from 20 ms to 1,520 ms: when
    // it is let go, the deadline (300 ms) has passed and the answer is waiting
    // (the hold leaves a busy PostgreSQL time to answer).
    // Held from an immediate, as requests hold it from their I/O callbacks: the
    // loop then looks at its timers before it reads the answer.
    const answer = sql<{ ok: number }>`select 1 as ok from pg_sleep(0.1)`.execute(connection.db);
    setTimeout(() => setImmediate(() => holdEventLoop(1500)), 20);
    expect((await answer).rows).toEqual([{ ok: 1 }]);
    expect(connection.reachability.unreachableFor()).toBeUndefined();
  });

  it("a query with no answer within the deadline fails, and its connection is not handed on", async () => {
    const connection = await connectWithDeadline(300);
    const pid = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection.db)).rows[0]!.pid;
    const before = await pid();

    const started = Date.now();
    await expect(sql`select pg_sleep(2)`.execute(connection.db)).rejects.toThrow(QUERY_TIMED_OUT);
    expect(Date.now() - started).toBeLessThan(1500);
    // A time-out counts as the database away until the probe (or a query) finds it.
    expect(connection.reachability.unreachableFor()).toBeDefined();
    await connection.reachability.answered();
    expect(await pid()).not.toBe(before);
  });

  it("a database that accepts no conversation fails a new connection within the 5 s timeout", async () => {
    const port = await silentServer(cleanups);
    const connection = connect({ kind: "postgres", url: `postgres://nobody@127.0.0.1:${port}/none` });
    cleanups.push(() => connection.db.destroy());
    const started = Date.now();
    expect(await ping(connection.db)).toBe(false);
    expect(Date.now() - started).toBeLessThan(7000);
  }, 15_000);

  it("the probe counts an answer that came while the process was held past its deadline", async () => {
    const database = await freshPostgres();
    cleanups.push(database.cleanup);
    // 1 s for each step: the 1.5 s hold outlasts it, and a busy machine's new connection fits in it.
    const probe = connectionProbe({ connectionString: database.url }, HeldAfterSelectOne, 1000);
    await expect(probe()).resolves.toBeUndefined();
  });

  it("the probe fails within its deadline when the database accepts no conversation", async () => {
    const port = await silentServer(cleanups);
    const probe = connectionProbe({ connectionString: `postgres://nobody@127.0.0.1:${port}/none` }, pg.Client, 1000);
    const started = Date.now();
    await expect(probe()).rejects.toThrow("the probe had no connection in time");
    expect(Date.now() - started).toBeLessThan(2500);
  });

  /** The LISTEN connection's timings in these tests: a heartbeat every 1.2 s that must answer within 1 s. */
  const QUICKLY = { heartbeatMs: 1200, answerWithinMs: 1000 };

  /** A LISTEN connection to `url`, with what its subscriber heard, once it listens. */
  async function listenQuickly(url: string) {
    const heard = { listening: 0, lost: 0 };
    const listener = createListener(url, QUICKLY);
    cleanups.push(() => listener.close());
    let first: (client: Pick<pg.Client, "query">) => void = () => {};
    const listening = new Promise<Pick<pg.Client, "query">>((resolve) => (first = resolve));
    listener.subscribe("test_channel", {
      notify: () => {},
      listening: (client) => {
        heard.listening += 1;
        first(client);
      },
      lost: () => void (heard.lost += 1),
    });
    return { heard, client: await listening };
  }

  it("the LISTEN heartbeat counts an answer that came while the process was held past its deadline", async () => {
    const database = await freshPostgres();
    cleanups.push(database.cleanup);
    const { heard, client } = await listenQuickly(database.url);
    // The next heartbeat's "select 1" holds the loop once it is sent, as HeldAfterSelectOne does.
    let held = 0;
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const pending = query(...args);
      if (args[0] === "select 1" && held++ === 0) setImmediate(() => holdEventLoop(1500));
      return pending;
    };
    await expect.poll(() => held, { timeout: 10_000 }).toBeGreaterThan(1);
    expect(heard).toEqual({ listening: 1, lost: 0 });
  });

  it("a LISTEN connection whose heartbeat has no answer is dropped within its deadline, and made again", async () => {
    const database = await freshPostgres();
    cleanups.push(database.cleanup);
    const target = new URL(database.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(() => proxy.close());
    target.port = String(proxy.port);
    const { heard } = await listenQuickly(target.toString());
    proxy.cut();
    const cutAt = Date.now();
    await expect.poll(() => heard.lost, { timeout: 10_000, interval: 20 }).toBe(1);
    expect(Date.now() - cutAt).toBeLessThan(3500);
    proxy.heal();
    await expect.poll(() => heard.listening, { timeout: 10_000 }).toBe(2);
  }, 20_000);

  it("a LISTEN connection closed while it is still being made to a silent database ends within its deadline", async () => {
    const port = await silentServer(cleanups);
    const listener = createListener(`postgres://nobody@127.0.0.1:${port}/none`, QUICKLY);
    await sleep(100);
    const started = Date.now();
    await listener.close();
    expect(Date.now() - started).toBeLessThan(2500);
  });
});
